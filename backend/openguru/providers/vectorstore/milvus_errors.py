"""pymilvus and gRPC errors translated into ours, so callers see one error vocabulary."""

from collections.abc import Iterator
from contextlib import AbstractContextManager, contextmanager, suppress
from typing import Any

import grpc
from pymilvus import MilvusException

from openguru.core.errors import DomainError, ErrorCode, TransientError

_TRANSIENT_GRPC_CODES = frozenset(
    {
        grpc.StatusCode.UNAVAILABLE,
        grpc.StatusCode.DEADLINE_EXCEEDED,
        grpc.StatusCode.RESOURCE_EXHAUSTED,
        grpc.StatusCode.ABORTED,
    }
)
# The Milvus server codes it marks retriable: 2 service unavailable (also pymilvus' "cannot
# connect"), 4 too many requests, 8 rate limit, 12 resources insufficient. (1, "not ready", is
# left out: pymilvus also uses it for its own argument errors.)
_TRANSIENT_MILVUS_CODES = frozenset({2, 4, 8, 12})
_COLLECTION_NOT_FOUND = 100


class CollectionNotFoundError(DomainError):
    def __init__(self) -> None:
        super().__init__(ErrorCode.NOT_FOUND, "The vector store has no such collection.")


@contextmanager
def translated_errors(action: str) -> Iterator[None]:
    """pymilvus and gRPC errors become ours: retryable ones a `TransientError`."""
    try:
        yield
    except (MilvusException, grpc.RpcError) as error:
        raise _domain_error(error, action) from error


def unless_missing() -> AbstractContextManager[None]:
    """Swallow a missing collection: a guru with nothing indexed has nothing to return."""
    return suppress(CollectionNotFoundError)


def _domain_error(error: Exception, action: str) -> DomainError:
    code = status_code(error)
    if code == _COLLECTION_NOT_FOUND:
        return CollectionNotFoundError()
    if code in _TRANSIENT_GRPC_CODES or code in _TRANSIENT_MILVUS_CODES:
        msg = "The vector store is not reachable; try again in a moment."
        return TransientError(ErrorCode.PROVIDER_UNAVAILABLE, msg)
    reason = error.message if isinstance(error, MilvusException) else str(error)
    msg = f"The vector store could not {action}."
    return DomainError(ErrorCode.PROVIDER_ERROR, msg, detail={"reason": str(reason)[:300]})


def status_code(error: Exception) -> Any:
    """The gRPC status or Milvus code. When pymilvus gives up retrying a gRPC error it wraps it
    in a MilvusException whose `code` is the gRPC error's bound `code` method."""
    if isinstance(error, grpc.RpcError):
        return error.code()
    code = getattr(error, "code", None)
    return code() if callable(code) else code

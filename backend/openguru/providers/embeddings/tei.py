"""Embeddings from a HuggingFace text-embeddings-inference (TEI) style server (EMBED_API_URL).

`TEIHttpClient` is shared with the TEI reranker: one place maps the wire's failures to
`TransientError` (worth a retry) or `DomainError` (PROVIDER_ERROR).
"""

import math
from collections.abc import Sequence
from typing import Any

import httpx

from openguru.core.errors import DomainError, ErrorCode, TransientError
from openguru.providers.embeddings.base import embed_in_batches

DEFAULT_MAX_INPUT_TOKENS = 512
_ERROR_TEXT_LIMIT = 300


class TEIHttpClient:
    """JSON over HTTP to one TEI server; raises only our error types."""

    def __init__(
        self, *, url: str, api_key: str | None = None, timeout: float = 30.0, service: str
    ) -> None:
        headers = {"Authorization": f"Bearer {api_key}"} if api_key else {}
        self._service = service
        self._http = httpx.Client(base_url=url.rstrip("/"), headers=headers, timeout=timeout)

    def post_json(self, path: str, payload: dict[str, Any]) -> Any:
        return self._request("POST", path, payload)

    def get_json(self, path: str) -> Any:
        return self._request("GET", path, None)

    def close(self) -> None:
        self._http.close()

    def _request(self, method: str, path: str, payload: dict[str, Any] | None) -> Any:
        try:
            response = self._http.request(method, path, json=payload)
        except httpx.TimeoutException as exc:
            raise TransientError(
                ErrorCode.PROVIDER_UNAVAILABLE, f"The {self._service} timed out."
            ) from exc
        except httpx.TransportError as exc:
            raise TransientError(
                ErrorCode.PROVIDER_UNAVAILABLE, f"The {self._service} cannot be reached."
            ) from exc
        _raise_for_status(response, self._service)
        try:
            return response.json()
        except ValueError as exc:
            raise DomainError(
                ErrorCode.PROVIDER_ERROR, f"The {self._service} answered with invalid JSON."
            ) from exc


def _raise_for_status(response: httpx.Response, service: str) -> None:
    status = response.status_code
    if status < 400:
        return
    detail = {"status": status, "body": response.text[:_ERROR_TEXT_LIMIT]}
    # 429 and 5xx are overload or outage (TEI answers 503 when its queue is full): retry later.
    if status == 429 or status >= 500:
        raise TransientError(
            ErrorCode.PROVIDER_UNAVAILABLE,
            f"The {service} is unavailable (HTTP {status}).",
            detail=detail,
        )
    raise DomainError(
        ErrorCode.PROVIDER_ERROR,
        f"The {service} refused the request (HTTP {status}).",
        detail=detail,
    )


def base_url(url: str, endpoint: str) -> str:
    """The server root, also when the full endpoint URL (".../embed") was configured."""
    url = url.rstrip("/")
    suffix = f"/{endpoint}"
    return url[: -len(suffix)] if url.endswith(suffix) else url


class TEIEmbedder:
    def __init__(
        self,
        *,
        url: str,
        api_key: str | None = None,
        model_name: str,
        dimension: int | None = None,
        batch_size: int = 32,
        timeout: float = 30.0,
    ) -> None:
        self._client = TEIHttpClient(
            url=base_url(url, "embed"), api_key=api_key, timeout=timeout, service="embedding server"
        )
        self._model_name = model_name
        self._dimension = dimension
        self._batch_size = batch_size
        self._max_input_tokens: int | None = None

    @property
    def model_name(self) -> str:
        return self._model_name

    @property
    def dimension(self) -> int:
        if self._dimension is None:
            # Probed once; two threads racing here both get the same answer, so no lock.
            self._dimension = len(self._embed_batch(["dimension probe"])[0])
        return self._dimension

    @property
    def max_input_tokens(self) -> int:
        if self._max_input_tokens is None:
            try:
                info = self._client.get_json("/info")
            except TransientError:
                return DEFAULT_MAX_INPUT_TOKENS  # not cached: ask again once the server is back
            except DomainError:
                info = None  # a server or proxy without /info
            self._max_input_tokens = _max_input_length(info) or DEFAULT_MAX_INPUT_TOKENS
        return self._max_input_tokens

    def count_tokens(self, text: str) -> int:
        # The tokenizer lives on the server, so this is the usual ~4 characters per token of
        # English prose. It may undercount code or other scripts; the server truncates
        # ("truncate": true) rather than failing on an input that turns out too long.
        return math.ceil(len(text) / 4)

    def embed_documents(self, texts: Sequence[str]) -> list[list[float]]:
        return embed_in_batches(texts, batch_size=self._batch_size, embed_batch=self._embed_batch)

    def embed_query(self, text: str) -> list[float]:
        return self._embed_batch([text])[0]

    def _embed_batch(self, texts: Sequence[str]) -> list[list[float]]:
        body = self._client.post_json("/embed", {"inputs": list(texts), "truncate": True})
        vectors = _parse_vectors(body, expected_count=len(texts))
        if self._dimension is not None and any(len(v) != self._dimension for v in vectors):
            raise DomainError(
                ErrorCode.PROVIDER_ERROR,
                f"The embedding server returned vectors of another size than {self._dimension}.",
            )
        return vectors


def _parse_vectors(body: Any, *, expected_count: int) -> list[list[float]]:
    if not isinstance(body, list) or len(body) != expected_count:
        raise DomainError(
            ErrorCode.PROVIDER_ERROR, "The embedding server returned an unexpected answer."
        )
    try:
        return [_unit([float(value) for value in vector]) for vector in body]
    except (TypeError, ValueError) as exc:
        raise DomainError(
            ErrorCode.PROVIDER_ERROR, "The embedding server returned a malformed vector."
        ) from exc


def _unit(vector: list[float]) -> list[float]:
    # The vector store compares by cosine; normalizing here keeps scores comparable whatever
    # the server's own `normalize` default is.
    norm = math.sqrt(sum(value * value for value in vector))
    if not vector or norm == 0.0:
        raise ValueError("empty or zero vector")
    return [value / norm for value in vector]


def _max_input_length(info: Any) -> int | None:
    value = info.get("max_input_length") if isinstance(info, dict) else None
    return value if isinstance(value, int) and value > 0 else None

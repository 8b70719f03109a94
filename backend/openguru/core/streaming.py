"""A streamed response body that stays streamed under ASGI.

Django serves a synchronous iterator to an ASGI server by reading it whole into a list first
(`StreamingHttpResponse.__aiter__`), which defeats streaming a large export. Under ASGI the
chunks are instead pulled a few at a time through `sync_to_async` in the request's own thread
(thread-sensitive), where the view ran: the ORM's server-side cursor lives on that thread's
database connection."""

from collections.abc import AsyncIterator, Iterator
from itertools import islice
from typing import Any

from asgiref.sync import sync_to_async
from django.core.handlers.asgi import ASGIRequest

CHUNKS_PER_HOP = 16  # chunks read per trip to the request's thread


async def _pulled(chunks: Iterator[bytes]) -> AsyncIterator[bytes]:
    take = sync_to_async(lambda: list(islice(chunks, CHUNKS_PER_HOP)), thread_sensitive=True)
    while batch := await take():
        for chunk in batch:
            yield chunk


def streamed(chunks: Iterator[bytes], *, request: Any) -> Iterator[bytes] | AsyncIterator[bytes]:
    """`chunks` as the body of a StreamingHttpResponse to `request` (DRF's or Django's)."""
    django_request = getattr(request, "_request", request)
    if isinstance(django_request, ASGIRequest):
        return _pulled(chunks)
    return chunks

"""A streamed body under ASGI is handed over a few chunks at a time, not read whole first."""

import asyncio
from collections.abc import Iterator

from django.test import AsyncRequestFactory, RequestFactory
from openguru.core.streaming import CHUNKS_PER_HOP, streamed


def test_under_asgi_the_chunks_are_pulled_as_they_are_sent():
    pulled: list[int] = []

    def chunks() -> Iterator[bytes]:
        for n in range(3 * CHUNKS_PER_HOP + 1):
            pulled.append(n)
            yield f"{n},".encode()

    body = streamed(chunks(), request=AsyncRequestFactory().post("/export/"))

    async def first_chunk_then_rest() -> tuple[bytes, int, list[bytes]]:
        iterator = body.__aiter__()  # type: ignore[union-attr]
        first = await iterator.__anext__()
        read_by_then = len(pulled)
        return first, read_by_then, [chunk async for chunk in iterator]

    first, read_by_then, rest = asyncio.run(first_chunk_then_rest())
    assert first == b"0,"
    assert read_by_then == CHUNKS_PER_HOP  # one hop's worth, not the whole body
    assert b"".join([first, *rest]) == b"".join(f"{n},".encode() for n in range(len(pulled)))


def test_under_wsgi_the_iterator_is_the_body():
    chunks = iter([b"a", b"b"])
    assert streamed(chunks, request=RequestFactory().get("/")) is chunks

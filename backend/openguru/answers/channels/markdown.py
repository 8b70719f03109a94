"""Gurubase's answer stream (API v1's and the widget's): no SSE framing, `# <question>`, then
the raw markdown as the engine writes it. A refusal is a 400 before any byte of it
(`events.first_event`), so a client never parses a refusal out of a stream."""

from collections.abc import AsyncGenerator, AsyncIterator, Awaitable, Callable
from typing import Any

from django.http import StreamingHttpResponse

from openguru.answers.channels.events import first_event
from openguru.answers.channels.responses import stream_response
from openguru.answers.engine.events import AnswerEvent

OnDone = Callable[[dict[str, Any]], Awaitable[object]]


async def _body(
    events: AsyncGenerator[AnswerEvent, None], *, title: str, on_done: OnDone
) -> AsyncIterator[bytes]:
    yield f"# {title}\n\n".encode()
    try:
        async for event in events:
            if event.name == "delta":
                yield event.data["text"].encode()
            elif event.name == "error":
                yield f"\n\n{event.data['msg']}\n".encode()
            elif event.name == "done":
                await on_done(event.data)
    finally:
        await events.aclose()


async def markdown_response(
    events: AsyncGenerator[AnswerEvent, None], *, title: str, on_done: OnDone
) -> StreamingHttpResponse:
    """`on_done` gets the saved answer before the body ends: a client may ask for it
    (fetch_existing) as soon as the stream closes. From here on `events` are this stream's."""
    try:
        await first_event(events)
    except BaseException:
        await events.aclose()
        raise
    return stream_response(_body(events, title=title, on_done=on_done))

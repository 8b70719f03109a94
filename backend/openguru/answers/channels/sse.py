"""The Q&A site's stream: server-sent events `meta`, `delta`..., `done` | `error`, as the
engine yields them. An answer that fails before its first event (the vector store is down, the
server is overloaded) is a plain JSON error with its status; once the stream has started,
errors are `error` events."""

import json
from collections.abc import AsyncGenerator, AsyncIterator

from django.http import JsonResponse, StreamingHttpResponse

from openguru.answers.channels.events import engine_error
from openguru.answers.channels.responses import stream_response
from openguru.answers.engine.events import AnswerEvent
from openguru.core.errors import DomainError
from openguru.core.exception_handler import json_error


def _sse(event: AnswerEvent) -> bytes:
    return f"event: {event.name}\ndata: {json.dumps(event.data)}\n\n".encode()


async def _stream(
    first: AnswerEvent, events: AsyncGenerator[AnswerEvent, None]
) -> AsyncIterator[bytes]:
    try:
        yield _sse(first)
        async for event in events:
            yield _sse(event)
    finally:
        await events.aclose()


async def sse_response(
    events: AsyncGenerator[AnswerEvent, None],
) -> StreamingHttpResponse | JsonResponse:
    try:
        first = await anext(events)
    except DomainError as exc:
        return json_error(exc)
    if first.name == "error":
        await events.aclose()
        return json_error(engine_error(first.data))
    return stream_response(_stream(first, events), content_type="text/event-stream")

"""OpenAI's chat/completions: the answer as a `chat.completion`, or with `stream` as
server-sent `chat.completion.chunk` events as the engine writes it (a first chunk with the
role, content deltas, its sources, a last one with `finish_reason`), then `data: [DONE]`.

A question the guru declines is an ordinary assistant message carrying its refusal text, not
an error: OpenAI clients treat a 4xx as a broken request and would hide the explanation from
the user. Errors are in OpenAI's envelope and ours at once:
`{"error": {"message", "type", "param", "code"}, "msg", "code"}`."""

import json
import time
import uuid
from collections.abc import AsyncGenerator, AsyncIterator
from dataclasses import dataclass, field
from typing import Any

from django.http import JsonResponse, StreamingHttpResponse

from openguru.answers.channels.events import engine_error, first_event
from openguru.answers.channels.mcp import answer_markdown, sources_suffix
from openguru.answers.channels.prepare import Prepared
from openguru.answers.channels.responses import stream_response
from openguru.answers.engine.events import AnswerEvent
from openguru.core.errors import DomainError, ErrorCode
from openguru.core.exception_handler import json_error


@dataclass(frozen=True)
class Completion:
    """One completion's names: `model` is echoed back."""

    model: str
    id: str = field(default_factory=lambda: f"chatcmpl-{uuid.uuid4().hex}")
    created: int = field(default_factory=lambda: int(time.time()))


_ERROR_TYPES = {
    401: "authentication_error",
    403: "permission_error",
    404: "not_found_error",
    429: "rate_limit_error",
}


def error_body(error: DomainError) -> dict[str, Any]:
    status = error.http_status
    kind = _ERROR_TYPES.get(status, "server_error" if status >= 500 else "invalid_request_error")
    openai = {"message": error.msg, "type": kind, "param": None, "code": str(error.code)}
    return {"error": openai, **error.as_dict()}


def chat_error(error: DomainError) -> JsonResponse:
    return json_error(error, body=error_body(error))


def _completion(completion: Completion, text: str) -> dict[str, Any]:
    return {
        "id": completion.id,
        "object": "chat.completion",
        "created": completion.created,
        "model": completion.model,
        "choices": [
            {
                "index": 0,
                "message": {"role": "assistant", "content": text},
                "finish_reason": "stop",
                "logprobs": None,
            }
        ],
        # The engine's token counts are saved with the question, not passed on; zeros say
        # "unknown" to a client that reads them.
        "usage": {"prompt_tokens": 0, "completion_tokens": 0, "total_tokens": 0},
    }


def _sse(body: dict[str, Any]) -> bytes:
    return f"data: {json.dumps(body)}\n\n".encode()


def _chunk(completion: Completion, delta: dict[str, str], finish: str | None = None) -> bytes:
    return _sse(
        {
            "id": completion.id,
            "object": "chat.completion.chunk",
            "created": completion.created,
            "model": completion.model,
            "choices": [{"index": 0, "delta": delta, "finish_reason": finish, "logprobs": None}],
        }
    )


_DONE = b"data: [DONE]\n\n"


async def _chunks(
    completion: Completion, events: AsyncGenerator[AnswerEvent, None], prepared: Prepared
) -> AsyncIterator[bytes]:
    """The answer's deltas as they come, its sources, the end. An error after the first byte
    can only be told in the stream: OpenAI's SDK raises on a `data: {"error": ...}` event."""
    try:
        yield _chunk(completion, {"role": "assistant", "content": ""})
        async for event in events:
            if event.name == "delta" and event.data["text"]:
                yield _chunk(completion, {"content": event.data["text"]})
            elif event.name == "error":
                yield _sse(error_body(engine_error(event.data)))
                return
            elif event.name == "done":
                sources = sources_suffix(event.data["references"])
                if sources:
                    yield _chunk(completion, {"content": sources})
        yield _chunk(completion, {}, finish="stop")
        yield _DONE
    finally:
        await events.aclose()
        await prepared.release()


async def _whole(completion: Completion, text: str) -> AsyncIterator[bytes]:
    """A text known in full (a refusal) as a stream."""
    yield _chunk(completion, {"role": "assistant", "content": ""})
    yield _chunk(completion, {"content": text})
    yield _chunk(completion, {}, finish="stop")
    yield _DONE


async def _streamed(
    prepared: Prepared, completion: Completion
) -> StreamingHttpResponse | JsonResponse:
    """Errors before the first event are still JSON with a status; a refusal is a message."""
    events = prepared.events()
    try:
        await first_event(events)
    except BaseException as exc:
        await events.aclose()
        await prepared.release()
        if isinstance(exc, DomainError) and exc.code == ErrorCode.NO_ANSWER:
            return stream_response(_whole(completion, exc.msg))
        raise
    return stream_response(_chunks(completion, events, prepared))


async def chat_response(
    prepared: Prepared, completion: Completion, *, stream: bool
) -> StreamingHttpResponse | JsonResponse:
    """Raises `DomainError` before any byte is sent (the door answers it with `chat_error`).
    The binge opened for the conversation is dropped once the answer is over, if unused."""
    if stream:
        return await _streamed(prepared, completion)
    try:
        return JsonResponse(_completion(completion, await answer_markdown(prepared.events())))
    finally:
        await prepared.release()

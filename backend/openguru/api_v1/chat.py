"""POST /api/v1/<guru_slug>/chat/completions: a Guru behind OpenAI's chat completions protocol,
so any OpenAI client can ask it (`base_url=".../api/v1/<guru_slug>"`, `api_key=<API key>`; the
key is read from `Authorization: Bearer` as the SDK sends it, or from `X-API-KEY`).

The last user message is the question and the user/assistant turns before it the conversation,
which the engine gets as history (`conversations.py`). Answers come from `answers.engine.ask.ask`
like every channel's, followed by a "Sources:" list of the references the text does not link
already. Unknown OpenAI parameters (temperature, tools, ...) are ignored: the guru's own
settings decide. `model` is echoed back, or the guru's slug when none is given.

A question the guru declines is answered with an ordinary assistant message carrying its
refusal text, not with an error: OpenAI clients treat a 4xx as a broken request and would hide
the explanation from the user. Errors are in OpenAI's envelope and ours at once:
`{"error": {"message", "type", "param", "code"}, "msg", "code"}`.

With `stream: true` the answer comes as server-sent `chat.completion.chunk` events as the engine
produces it (a first chunk with the role, content deltas, a last one with `finish_reason`), then
`data: [DONE]`. An async Django view for that reason, like `answer.py`.
"""

import json
import time
import uuid
from collections.abc import AsyncGenerator, AsyncIterator
from dataclasses import dataclass
from functools import partial
from typing import Any

from django.http import HttpRequest, JsonResponse, StreamingHttpResponse
from django.views.decorators.csrf import csrf_exempt
from rest_framework import serializers

from openguru.answers.engine.admission import admitted_ask
from openguru.answers.engine.ask import AskRequest
from openguru.answers.engine.events import AnswerEvent
from openguru.answers.engine.providers import providers_for
from openguru.answers.models import Binge, Question
from openguru.api_v1.access import Caller, caller_guru
from openguru.api_v1.agents import agent_api_key, answer_markdown, engine_error, sources_suffix
from openguru.api_v1.answer import first_event
from openguru.api_v1.conversations import (
    Conversation,
    conversation_binge_create,
    conversation_binge_discard,
    conversation_from_messages,
)
from openguru.core.asgi import skips_site_middleware
from openguru.core.errors import DomainError, ErrorCode
from openguru.core.json_body import parse_json_body
from openguru.core.openapi_stand_ins import documented_by
from openguru.core.threads import run_blocking


class ChatInput(serializers.Serializer):
    model = serializers.CharField(required=False, allow_blank=True, default="", max_length=200)
    messages = serializers.ListField(
        child=serializers.DictField(), allow_empty=False, max_length=1000
    )
    stream = serializers.BooleanField(required=False, default=False)


@dataclass(frozen=True)
class _Chat:
    caller: Caller
    conversation: Conversation
    binge: Binge | None  # a follow-up's answer is saved in a binge of its own
    stream: bool
    model: str
    id: str
    created: int


def _prepare(request: HttpRequest, guru_slug: str) -> _Chat:
    """Blocking: key, rate limit, guru, body and, for a follow-up, its binge, in one hop."""
    key = agent_api_key(
        x_api_key=request.headers.get("X-API-KEY", ""),
        authorization=request.headers.get("Authorization", ""),
    )
    caller = caller_guru(key=key, guru_slug=guru_slug)
    data = parse_json_body(request, ChatInput)
    conversation = conversation_from_messages(data["messages"])
    binge = None
    if conversation.history:
        binge = conversation_binge_create(guru=caller.guru, owner=key.user)
    return _Chat(
        caller=caller,
        conversation=conversation,
        binge=binge,
        stream=data["stream"],
        model=data["model"] or guru_slug,
        id=f"chatcmpl-{uuid.uuid4().hex}",
        created=int(time.time()),
    )


def _ask_request(chat: _Chat, received_at: float) -> AskRequest:
    return AskRequest(
        guru=chat.caller.guru,
        question=chat.conversation.question,
        source=Question.Source.API,
        binge=chat.binge,
        history=chat.conversation.history,
        received_at=received_at,
    )


async def _discard_unused_binge(chat: _Chat) -> None:
    if chat.binge is not None:
        await run_blocking(partial(conversation_binge_discard, binge=chat.binge))


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


def _error_response(error: DomainError) -> JsonResponse:
    response = JsonResponse(error_body(error), status=error.http_status)
    if error.retry_after is not None:
        response["Retry-After"] = str(error.retry_after)
    return response


def _completion(chat: _Chat, text: str) -> dict[str, Any]:
    return {
        "id": chat.id,
        "object": "chat.completion",
        "created": chat.created,
        "model": chat.model,
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


def _chunk(chat: _Chat, delta: dict[str, str], finish_reason: str | None = None) -> bytes:
    return _sse(
        {
            "id": chat.id,
            "object": "chat.completion.chunk",
            "created": chat.created,
            "model": chat.model,
            "choices": [
                {"index": 0, "delta": delta, "finish_reason": finish_reason, "logprobs": None}
            ],
        }
    )


_DONE = b"data: [DONE]\n\n"


async def _chunks(chat: _Chat, events: AsyncGenerator[AnswerEvent, None]) -> AsyncIterator[bytes]:
    """The answer's deltas as they come, its sources, the end. An error after the first byte
    can only be told in the stream: OpenAI's SDK raises on a `data: {"error": ...}` event."""
    try:
        yield _chunk(chat, {"role": "assistant", "content": ""})
        async for event in events:
            if event.name == "delta" and event.data["text"]:
                yield _chunk(chat, {"content": event.data["text"]})
            elif event.name == "error":
                yield _sse(error_body(engine_error(event.data)))
                return
            elif event.name == "done":
                content = event.data["content"]
                sources = sources_suffix(content, event.data["references"])
                if sources:
                    yield _chunk(chat, {"content": sources})
        yield _chunk(chat, {}, finish_reason="stop")
        yield _DONE
    finally:
        await events.aclose()
        await _discard_unused_binge(chat)


async def _whole(chat: _Chat, text: str) -> AsyncIterator[bytes]:
    """A text known in full (a refusal) as a stream."""
    yield _chunk(chat, {"role": "assistant", "content": ""})
    yield _chunk(chat, {"content": text})
    yield _chunk(chat, {}, finish_reason="stop")
    yield _DONE


def _stream_response(body: AsyncIterator[bytes]) -> StreamingHttpResponse:
    response = StreamingHttpResponse(body, content_type="text/event-stream; charset=utf-8")
    response["Cache-Control"] = "no-cache, no-transform"  # no proxy may buffer it to compress
    response["X-Accel-Buffering"] = "no"  # nginx: pass bytes through as they come
    return response


async def _streamed(chat: _Chat, received_at: float) -> StreamingHttpResponse:
    """Errors before the first event are still JSON with a status; a refusal is a message."""
    events = admitted_ask(_ask_request(chat, received_at), providers_for(chat.caller.guru))
    try:
        await first_event(events)
    except DomainError as exc:
        await events.aclose()
        if exc.code != ErrorCode.NO_ANSWER:
            raise
        await _discard_unused_binge(chat)
        return _stream_response(_whole(chat, exc.msg))
    except BaseException:
        await events.aclose()
        raise
    return _stream_response(_chunks(chat, events))


@documented_by("openguru.api_v1.openapi.CHAT_COMPLETIONS")
@skips_site_middleware
@csrf_exempt
async def chat_completions(
    request: HttpRequest, guru_slug: str
) -> StreamingHttpResponse | JsonResponse:
    received_at = time.perf_counter()
    if request.method != "POST":
        return _error_response(DomainError(ErrorCode.METHOD_NOT_ALLOWED, "Use POST."))
    chat: _Chat | None = None
    try:
        chat = await run_blocking(_prepare, request, guru_slug)
        if chat.stream:
            response = await _streamed(chat, received_at)
            chat = None  # from here on the stream cleans up after itself
            return response
        text = await answer_markdown(
            _ask_request(chat, received_at), providers_for(chat.caller.guru)
        )
        return JsonResponse(_completion(chat, text))
    except DomainError as exc:
        return _error_response(exc)
    finally:
        if chat is not None:
            await _discard_unused_binge(chat)

"""POST /api/v1/<guru_slug>/answer/: Gurubase's ask, on `answers.engine.ask.ask` like every channel.

JSON by default; with `stream: true` the body is the raw markdown answer (no SSE framing), its
first line `# <question>`, written as the engine produces it. A refusal is a 400 before any
byte of an answer, so a client never has to parse a refusal out of a stream. These are async
Django views (DRF's are sync and would buffer a stream under ASGI).
"""

import time
from collections.abc import AsyncGenerator, AsyncIterator, Awaitable, Callable
from dataclasses import dataclass
from functools import partial
from typing import Any

from django.http import HttpRequest, JsonResponse, StreamingHttpResponse
from django.views.decorators.csrf import csrf_exempt
from django.views.decorators.http import require_POST
from rest_framework import serializers

from openguru.answers.engine.admission import admitted_ask
from openguru.answers.engine.ask import AskRequest
from openguru.answers.engine.events import AnswerEvent
from openguru.answers.engine.providers import providers_for
from openguru.answers.models import Binge, Question
from openguru.answers.selectors import (
    binge_get,
    binge_unused_for,
    question_find_in_binge,
    question_find_same,
)
from openguru.answers.services import binge_for_answer
from openguru.api_v1.access import Caller, caller_from_request
from openguru.api_v1.gurubase import answer_payload, question_data
from openguru.core.asgi import skips_site_middleware
from openguru.core.errors import DomainError, ErrorCode
from openguru.core.exception_handler import json_error
from openguru.core.json_body import parse_json_body
from openguru.core.openapi_stand_ins import documented_by
from openguru.core.threads import run_blocking

MAX_QUESTION_CHARS = 2000


class AnswerInput(serializers.Serializer):
    question = serializers.CharField(max_length=MAX_QUESTION_CHARS)
    stream = serializers.BooleanField(required=False, default=False)
    session_id = serializers.UUIDField(required=False, allow_null=True)
    fetch_existing = serializers.BooleanField(required=False, default=False)
    short_answer = serializers.BooleanField(required=False, default=True)


@dataclass(frozen=True)
class _Call:
    caller: Caller
    data: dict[str, Any]
    binge: Binge | None
    parent: Question | None
    # Read with the key, in the same hop: a repeated question's answer then needs no further
    # database round trip to name its session.
    unused_session: Binge | None = None


def _prepare(request: HttpRequest, guru_slug: str) -> _Call:
    """Blocking: key, rate limit, guru, body and session, in one worker-thread hop."""
    caller = caller_from_request(request, guru_slug)
    data = parse_json_body(request, AnswerInput)
    binge = parent = unused = None
    if data.get("session_id"):
        binge = binge_get(guru=caller.guru, binge_id=data["session_id"], owner=caller.key.user)
        parent = Question.objects.filter(binge=binge).order_by("-created_at").first()
        parent = parent or binge.root_question
    elif not data["fetch_existing"]:
        unused = binge_unused_for(guru=caller.guru, owner=caller.key.user, text=data["question"])
    return _Call(caller=caller, data=data, binge=binge, parent=parent, unused_session=unused)


def _existing(call: _Call) -> dict[str, Any]:
    """`fetch_existing`: the stored answer to this question (typically right after a stream)."""
    text = call.data["question"].strip()
    if call.binge is not None:
        question = question_find_in_binge(binge=call.binge, text=text)
    else:
        question = question_find_same(guru=call.caller.guru, text=text)
    if question is None:
        raise DomainError(ErrorCode.QUESTION_NOT_FOUND, "This question has not been answered yet.")
    return _payload(call, question_data(question))


async def _answered(call: _Call, answer: dict[str, Any]) -> dict[str, Any]:
    """The answer in Gurubase's shape; a database hop only when its session is not known yet."""
    known = call.binge or call.unused_session
    if known is not None and (call.binge or known.root_question_id == answer["id"]):
        return answer_payload(answer, session_id=str(known.pk))
    return await run_blocking(partial(_payload, call, answer))


def _payload(call: _Call, answer: dict[str, Any]) -> dict[str, Any]:
    """Blocking: the answer in Gurubase's shape, with the session it belongs to."""
    binge = binge_for_answer(
        owner=call.caller.key.user,
        guru=call.caller.guru,
        question_id=answer["id"],
        binge=call.binge,
    )
    return answer_payload(answer, session_id=str(binge.pk))


def _ask_request(call: _Call, received_at: float) -> AskRequest:
    return AskRequest(
        guru=call.caller.guru,
        question=call.data["question"].strip(),
        source=Question.Source.API,
        binge=call.binge,
        parent=call.parent,
        received_at=received_at,
        short_answer=call.data["short_answer"],
    )


def refusal(text: str) -> DomainError:
    return DomainError(ErrorCode.NO_ANSWER, text.strip())


async def first_event(events: AsyncIterator[AnswerEvent]) -> AnswerEvent:
    """The engine's first event (meta or error); a refusal or an error becomes a DomainError
    here, before the caller has sent anything."""
    event = await anext(events)
    if event.name == "error":
        raise DomainError(ErrorCode(event.data["code"]), event.data["msg"])
    if event.data.get("refused"):
        text = "".join([e.data.get("text", "") async for e in events if e.name == "delta"])
        raise refusal(text)
    return event


async def _collect(events: AsyncIterator[AnswerEvent]) -> dict[str, Any]:
    """The rest of an answer after its meta: the `done` event's data."""
    async for event in events:
        if event.name == "error":
            raise DomainError(ErrorCode(event.data["code"]), event.data["msg"])
        if event.name == "done":
            return event.data
    raise DomainError(ErrorCode.INTERNAL, "The answer ended early.")


async def markdown_stream(
    events: AsyncGenerator[AnswerEvent, None],
    *,
    title: str,
    on_done: Callable[[dict[str, Any]], Awaitable[object]],
) -> AsyncIterator[bytes]:
    """Gurubase's answer stream (the API's and the widget's): `# <title>`, then the markdown as
    the engine writes it. `on_done` gets the saved answer before the body ends: a client may
    ask for it (fetch_existing) as soon as the stream closes."""
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


def markdown_response(body: AsyncIterator[bytes]) -> StreamingHttpResponse:
    response = StreamingHttpResponse(body, content_type="text/event-stream; charset=utf-8")
    response["Cache-Control"] = "no-cache, no-transform"  # no proxy may buffer it to compress
    response["X-Accel-Buffering"] = "no"  # nginx: pass bytes through as they come
    return response


@documented_by("openguru.api_v1.openapi.V1_ANSWER")
@skips_site_middleware
@csrf_exempt
@require_POST
async def answer(request: HttpRequest, guru_slug: str) -> StreamingHttpResponse | JsonResponse:
    received_at = time.perf_counter()
    events: AsyncGenerator[AnswerEvent, None] | None = None
    try:
        call = await run_blocking(_prepare, request, guru_slug)
        if call.data["fetch_existing"]:
            return JsonResponse(await run_blocking(_existing, call))
        events = admitted_ask(_ask_request(call, received_at), providers_for(call.caller.guru))
        await first_event(events)
        if call.data["stream"]:
            title = call.data["question"].strip()
            # The session must exist before a client asks for it (fetch_existing).
            body = markdown_stream(events, title=title, on_done=partial(_answered, call))
            response = markdown_response(body)
            events = None  # the stream owns it now
            return response
        done = await _collect(events)
        return JsonResponse(await _answered(call, done))
    except DomainError as exc:
        return json_error(exc)
    finally:
        if events is not None:
            await events.aclose()

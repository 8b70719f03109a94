"""POST /api/widget/ask/: the embeddable widget's question (Gurubase's widget protocol), on
`answers.engine.ask.ask` like every channel.

A new answer is the raw markdown stream of the API (`# <question>`, then the text as it is
written); with `fetch_existing` the saved answer as JSON, which the widget asks for once the
stream ends (references, trust score, the slug its next question names as parent). A refusal
is a 400 before any byte, marked `not_error`: the widget shows it as the guru's reply rather
than as a failure. An async view like the other answer streams (DRF's are sync and would
buffer the stream under ASGI), served by the lean handler, whose middleware has the widget's
CORS too (openguru/integrations/widget/cors.py).
"""

import time
from collections.abc import AsyncGenerator
from dataclasses import dataclass
from typing import Any

from django.http import HttpRequest, JsonResponse, StreamingHttpResponse
from django.templatetags.static import static
from django.views.decorators.csrf import csrf_exempt
from django.views.decorators.http import require_POST
from rest_framework import serializers

from openguru.answers.engine.admission import admitted_ask
from openguru.answers.engine.ask import AskRequest
from openguru.answers.engine.events import AnswerEvent
from openguru.answers.engine.providers import providers_for
from openguru.answers.models import Binge, Question
from openguru.answers.selectors import question_find_in_binge, question_find_same, question_get
from openguru.api_v1.answer import (
    MAX_QUESTION_CHARS,
    first_event,
    markdown_response,
    markdown_stream,
)
from openguru.api_v1.gurubase import question_data, widget_answer_payload
from openguru.core.asgi import skips_site_middleware
from openguru.core.errors import DomainError, ErrorCode
from openguru.core.exception_handler import json_error
from openguru.core.json_body import parse_json_body
from openguru.core.openapi_stand_ins import documented_by
from openguru.core.ratelimit import anonymous_ask_limit_check, ask_rate_limit_check, client_ip
from openguru.core.threads import run_blocking
from openguru.gurus.models import Guru
from openguru.integrations.widget.auth import widget_from_request

# One image per kind of source (integrations/static/): Gurubase's widget shows `icon` as an <img>.
REFERENCE_ICONS = "openguru/icons/"


class WidgetAskInput(serializers.Serializer):
    question = serializers.CharField(max_length=MAX_QUESTION_CHARS)
    parent_slug = serializers.SlugField(
        required=False, allow_null=True, allow_blank=True, max_length=200
    )
    binge_id = serializers.UUIDField(required=False, allow_null=True)
    fetch_existing = serializers.BooleanField(required=False, default=False)


@dataclass(frozen=True)
class _Call:
    guru: Guru
    question: str
    fetch_existing: bool
    binge: Binge | None
    parent: Question | None
    icon_base: str  # where the references' icons are served, as an absolute address


def widget_binge_get(*, guru: Guru, binge_id: Any) -> Binge:
    """A widget's follow-up session: anonymous, of the widget's guru (never an API user's)."""
    binge = Binge.objects.filter(pk=binge_id, guru=guru, owner__isnull=True).first()
    if binge is None:
        raise DomainError(ErrorCode.NOT_FOUND, "No such follow-up session.")
    return binge


def _parent(guru: Guru, binge: Binge | None, parent_slug: str) -> Question | None:
    """The question this one follows: the one the widget names, else the session's latest."""
    if binge is None:
        return question_get(guru=guru, slug=parent_slug) if parent_slug else None
    named = Question.objects.filter(binge=binge, slug=parent_slug).first() if parent_slug else None
    latest = Question.objects.filter(binge=binge).order_by("-created_at").first()
    return named or latest or binge.root_question


def _prepare(request: HttpRequest) -> _Call:
    """Blocking: widget id and origin, limits, body and session, in one worker-thread hop."""
    guru = widget_from_request(request).guru
    data = parse_json_body(request, WidgetAskInput)
    if not data["fetch_existing"]:  # reading the answer just streamed is not a new question
        ip = client_ip(request)
        ask_rate_limit_check(ip=ip)
        anonymous_ask_limit_check(ip=ip, guru=guru)
    binge = widget_binge_get(guru=guru, binge_id=data["binge_id"]) if data.get("binge_id") else None
    parent = None if data["fetch_existing"] else _parent(guru, binge, data.get("parent_slug") or "")
    return _Call(
        guru=guru,
        question=data["question"].strip(),
        fetch_existing=data["fetch_existing"],
        binge=binge,
        parent=parent,
        icon_base=request.build_absolute_uri(static(REFERENCE_ICONS)),
    )


def _existing(call: _Call) -> dict[str, Any]:
    """The saved answer to this question (in its session, if any)."""
    if call.binge is not None:
        question = question_find_in_binge(binge=call.binge, text=call.question)
    else:
        question = question_find_same(guru=call.guru, text=call.question)
    if question is None:
        raise DomainError(ErrorCode.QUESTION_NOT_FOUND, "This question has not been answered yet.")
    return widget_answer_payload(question_data(question), icon_base=call.icon_base)


def widget_error(exc: DomainError) -> JsonResponse:
    """`{msg, code}`; a refusal (the sources don't cover it) also says `not_error`."""
    response = json_error(exc)
    if exc.code == ErrorCode.NO_ANSWER:
        response = JsonResponse({**exc.as_dict(), "not_error": True}, status=exc.http_status)
    return response


async def _saved(_answer: dict[str, Any]) -> None:
    """Nothing to add once the answer is saved: the widget reads it with fetch_existing."""


@documented_by("openguru.integrations.widget.openapi.WIDGET_ASK")
@skips_site_middleware
@csrf_exempt
@require_POST
async def widget_ask(request: HttpRequest) -> StreamingHttpResponse | JsonResponse:
    received_at = time.perf_counter()
    events: AsyncGenerator[AnswerEvent, None] | None = None
    try:
        call = await run_blocking(_prepare, request)
        if call.fetch_existing:
            return JsonResponse(await run_blocking(_existing, call))
        events = admitted_ask(
            AskRequest(
                guru=call.guru,
                question=call.question,
                source=Question.Source.WIDGET,
                binge=call.binge,
                parent=call.parent,
                received_at=received_at,
                short_answer=True,
            ),
            providers_for(call.guru),
        )
        await first_event(events)
        response = markdown_response(markdown_stream(events, title=call.question, on_done=_saved))
        events = None  # the stream owns it now
        return response
    except DomainError as exc:
        return widget_error(exc)
    finally:
        if events is not None:
            await events.aclose()

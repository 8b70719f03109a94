"""POST /api/v1/<guru_slug>/answer/: Gurubase's ask, on the one ask path (`answers/channels/`).

JSON by default; with `stream: true` the body is the raw markdown answer (no SSE framing), its
first line `# <question>`, written as the engine produces it. A refusal is a 400 before any
byte of an answer, so a client never has to parse a refusal out of a stream. These are async
Django views (DRF's are sync and would buffer a stream under ASGI).
"""

import time

from django.http import HttpRequest, JsonResponse, StreamingHttpResponse
from django.views.decorators.csrf import csrf_exempt
from django.views.decorators.http import require_POST
from rest_framework import serializers

from openguru.answers.channels.api import ApiAsk, api_ask, api_response
from openguru.answers.channels.prepare import MAX_QUESTION_CHARS, Ask, ask_prepare, version_field
from openguru.answers.channels.rules import Channel
from openguru.answers.engine.providers import providers_for
from openguru.api_v1.access import caller_from_request
from openguru.core.asgi import skips_site_middleware
from openguru.core.errors import DomainError
from openguru.core.exception_handler import json_error
from openguru.core.json_body import parse_json_body
from openguru.core.openapi_stand_ins import documented_by
from openguru.core.threads import run_blocking


class AnswerInput(serializers.Serializer):
    question = serializers.CharField(max_length=MAX_QUESTION_CHARS)
    stream = serializers.BooleanField(required=False, default=False)
    session_id = serializers.UUIDField(required=False, allow_null=True)
    fetch_existing = serializers.BooleanField(required=False, default=False)
    short_answer = serializers.BooleanField(required=False, default=True)
    version = version_field()


def _prepare(request: HttpRequest, guru_slug: str, received_at: float) -> ApiAsk:
    """Blocking: key, rate limit, guru, body and session, in one worker-thread hop."""
    caller = caller_from_request(request, guru_slug)
    data = parse_json_body(request, AnswerInput)
    prepared = ask_prepare(
        channel=Channel.API,
        asker=caller.asker,
        guru_slug=guru_slug,
        ask=Ask(
            question=data["question"],
            binge_id=data.get("session_id"),
            short_answer=data["short_answer"],
            reading=data["fetch_existing"],
            version=data.get("version") or "",
        ),
        providers_for=providers_for,
        received_at=received_at,
    )
    return api_ask(prepared, owner=caller.key.user, stream=data["stream"])


@documented_by("openguru.api_v1.openapi.V1_ANSWER")
@skips_site_middleware
@csrf_exempt
@require_POST
async def answer(request: HttpRequest, guru_slug: str) -> StreamingHttpResponse | JsonResponse:
    try:
        call = await run_blocking(_prepare, request, guru_slug, time.perf_counter())
        return await api_response(call)
    except DomainError as exc:
        return json_error(exc)

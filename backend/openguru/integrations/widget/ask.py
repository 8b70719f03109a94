"""POST /api/widget/ask/: the embeddable widget's question (Gurubase's widget protocol), on
the one ask path (`answers/channels/`) like every channel.

A new answer is the raw markdown stream of the API (`# <question>`, then the text as it is
written); with `fetch_existing` the saved answer as JSON, which the widget asks for once the
stream ends (references, trust score, the slug its next question names as parent). A refusal
is a 400 before any byte, marked `not_error`: the widget shows it as the guru's reply rather
than as a failure. An async view like the other answer streams (DRF's are sync and would
buffer the stream under ASGI), served by the lean handler, whose middleware has the widget's
CORS too (openguru/integrations/widget/cors.py).
"""

import time

from django.http import HttpRequest, JsonResponse, StreamingHttpResponse
from django.templatetags.static import static
from django.views.decorators.csrf import csrf_exempt
from django.views.decorators.http import require_POST
from rest_framework import serializers

from openguru.answers.channels.access import Asker
from openguru.answers.channels.prepare import (
    MAX_QUESTION_CHARS,
    Ask,
    Prepared,
    ask_prepare,
    version_field,
)
from openguru.answers.channels.rules import Channel
from openguru.answers.channels.widget import widget_error, widget_response
from openguru.answers.engine.providers import providers_for
from openguru.core.asgi import skips_site_middleware
from openguru.core.client_address import client_ip
from openguru.core.errors import DomainError
from openguru.core.json_body import parse_json_body
from openguru.core.openapi_stand_ins import documented_by
from openguru.core.threads import run_blocking
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
    version = version_field()


def _prepare(request: HttpRequest, received_at: float) -> Prepared:
    """Blocking: widget id and origin, body, then the one ask path, in one worker-thread hop.
    Reading the answer just streamed (fetch_existing) is not a new question."""
    guru = widget_from_request(request).guru
    data = parse_json_body(request, WidgetAskInput)
    return ask_prepare(
        channel=Channel.WIDGET,
        asker=Asker(ip=client_ip(request), guru=guru),
        guru_slug=guru.slug,
        ask=Ask(
            question=data["question"],
            binge_id=data.get("binge_id"),
            parent_slug=data.get("parent_slug") or "",
            reading=data["fetch_existing"],
            version=data.get("version") or "",
        ),
        providers_for=providers_for,
        received_at=received_at,
    )


@documented_by("openguru.integrations.widget.openapi.WIDGET_ASK")
@skips_site_middleware
@csrf_exempt
@require_POST
async def widget_ask(request: HttpRequest) -> StreamingHttpResponse | JsonResponse:
    try:
        prepared = await run_blocking(_prepare, request, time.perf_counter())
        icon_base = request.build_absolute_uri(static(REFERENCE_ICONS))
        return await widget_response(prepared, icon_base=icon_base)
    except DomainError as exc:
        return widget_error(exc)

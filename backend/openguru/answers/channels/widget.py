"""The widget's answer (Gurubase's widget protocol): a new answer is the markdown stream of
API v1; with `fetch_existing` the saved answer as JSON, its references' icons as image
addresses. A refusal is a 400 before any byte, marked `not_error`: the widget shows it as the
guru's reply rather than as a failure."""

from functools import partial
from typing import Any

from django.http import JsonResponse, StreamingHttpResponse

from openguru.answers.channels.gurubase import saved_answer, widget_answer_payload
from openguru.answers.channels.markdown import markdown_response
from openguru.answers.channels.prepare import Prepared
from openguru.core.errors import DomainError, ErrorCode
from openguru.core.exception_handler import json_error
from openguru.core.threads import run_blocking


def widget_error(exc: DomainError) -> JsonResponse:
    """`{msg, code}`; a refusal (the sources don't cover it) also says `not_error`."""
    if exc.code == ErrorCode.NO_ANSWER:
        return JsonResponse({**exc.as_dict(), "not_error": True}, status=exc.http_status)
    return json_error(exc)


async def _saved(_answer: dict[str, Any]) -> None:
    """Nothing to add once the answer is saved: the widget reads it with fetch_existing."""


def _saved_payload(prepared: Prepared, icon_base: str) -> dict[str, Any]:
    return widget_answer_payload(saved_answer(prepared), icon_base=icon_base)


async def widget_response(
    prepared: Prepared, *, icon_base: str
) -> StreamingHttpResponse | JsonResponse:
    """`icon_base`: where the references' icons are served, as an absolute address."""
    if prepared.reading:
        return JsonResponse(await run_blocking(partial(_saved_payload, prepared, icon_base)))
    title = prepared.request.question
    return await markdown_response(prepared.events(), title=title, on_done=_saved)

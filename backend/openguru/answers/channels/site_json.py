"""The Q&A site's whole answer as one JSON object (for scripts): the `meta` and `done` events'
data together, or the error with its status."""

from collections.abc import AsyncGenerator
from typing import Any

from django.http import JsonResponse

from openguru.answers.engine.events import AnswerEvent
from openguru.core.errors import DomainError, ErrorCode
from openguru.core.exception_handler import json_error


async def json_response(events: AsyncGenerator[AnswerEvent, None]) -> JsonResponse:
    result: dict[str, Any] = {}
    try:
        async for event in events:
            if event.name == "error":
                status = DomainError(ErrorCode(event.data["code"]), "").http_status
                return JsonResponse(event.data, status=status if status >= 400 else 500)
            if event.name in ("meta", "done"):
                result.update(event.data)
    except DomainError as exc:
        return json_error(exc)
    finally:
        await events.aclose()
    return JsonResponse(result)

"""Request bodies of the plain (async) Django views, checked by a DRF serializer as DRF views do:
malformed JSON and invalid fields become the same `{code, msg}` errors, naming the field."""

import json
from typing import Any

from django.http import HttpRequest
from rest_framework import serializers

from openguru.core.errors import DomainError, ErrorCode


def parse_json_body(
    request: HttpRequest, serializer: type[serializers.Serializer]
) -> dict[str, Any]:
    try:
        body = json.loads(request.body or b"{}")
    except (json.JSONDecodeError, UnicodeDecodeError) as exc:
        raise DomainError(ErrorCode.MALFORMED_JSON, "The request body is not valid JSON.") from exc
    if not isinstance(body, dict):
        raise DomainError(ErrorCode.INVALID_INPUT, "Send a JSON object.")
    data = serializer(data=body)
    if not data.is_valid():
        field, problems = next(iter(data.errors.items()))
        raise DomainError(ErrorCode.INVALID_INPUT, f"{field}: {problems[0]}")
    return dict(data.validated_data)

"""Request bodies of the plain (async) Django views, checked by a DRF serializer as DRF views do:
malformed JSON and invalid fields become the same `{code, msg}` errors, naming the field.

JSON nested deeper than MAX_JSON_DEPTH is refused on every path (these views, DRF's parser,
the webhooks): no request of ours nests that deep, and Python's decoder, and whatever walks the
value afterwards, would otherwise run out of recursion on it (a 500).
"""

import json
from typing import Any

from django.http import HttpRequest
from rest_framework import serializers
from rest_framework.exceptions import ParseError
from rest_framework.parsers import JSONParser

from openguru.core.errors import DomainError, ErrorCode


def parse_json_body(
    request: HttpRequest, serializer: type[serializers.Serializer]
) -> dict[str, Any]:
    try:
        body = json_loads_bounded(request.body or b"{}")
    except JsonTooDeep as exc:
        raise DomainError(ErrorCode.MALFORMED_JSON, TOO_DEEP) from exc
    except ValueError as exc:  # JSONDecodeError, UnicodeDecodeError
        raise DomainError(ErrorCode.MALFORMED_JSON, "The request body is not valid JSON.") from exc
    if not isinstance(body, dict):
        raise DomainError(ErrorCode.INVALID_INPUT, "Send a JSON object.")
    data = serializer(data=body)
    if not data.is_valid():
        field, problems = next(iter(data.errors.items()))
        raise DomainError(ErrorCode.INVALID_INPUT, f"{field}: {problems[0]}")
    return dict(data.validated_data)


MAX_JSON_DEPTH = 32
TOO_DEEP = f"The JSON body is nested more than {MAX_JSON_DEPTH} levels deep."


class JsonTooDeep(ValueError):
    pass


def json_too_deep(value: Any, limit: int = MAX_JSON_DEPTH) -> bool:
    """Does `value` nest lists or objects more than `limit` levels deep? (Iterative: a
    recursive walk would fail on the very values it is meant to catch.)"""
    stack = [(value, 1)]
    while stack:
        item, depth = stack.pop()
        if isinstance(item, dict | list):
            if depth > limit:
                return True
            children = item.values() if isinstance(item, dict) else item
            stack.extend((child, depth + 1) for child in children)
    return False


def json_loads_bounded(data: str | bytes) -> Any:
    """`json.loads`, raising JsonTooDeep (a ValueError) past MAX_JSON_DEPTH."""
    try:
        value = json.loads(data)
    except RecursionError as exc:
        raise JsonTooDeep(TOO_DEEP) from exc
    if json_too_deep(value):
        raise JsonTooDeep(TOO_DEEP)
    return value


class BoundedJSONParser(JSONParser):
    """DRF's JSON parser, refusing JSON nested past MAX_JSON_DEPTH with a 400."""

    def parse(self, stream: Any, media_type: Any = None, parser_context: Any = None) -> Any:
        try:
            data = super().parse(stream, media_type, parser_context)
        except RecursionError as exc:
            raise ParseError(TOO_DEEP) from exc
        if json_too_deep(data):
            raise ParseError(TOO_DEEP)
        return data

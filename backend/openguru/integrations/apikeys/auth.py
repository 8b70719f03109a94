"""`X-API-KEY` authentication: for DRF views, and for the async answer views that DRF can't host."""

from typing import Any

from django.http import HttpRequest
from rest_framework.authentication import BaseAuthentication
from rest_framework.exceptions import AuthenticationFailed
from rest_framework.permissions import BasePermission
from rest_framework.request import Request

from openguru.core.errors import DomainError, ErrorCode
from openguru.integrations.apikeys.services import api_key_authenticate
from openguru.integrations.models import APIKey

HEADER = "HTTP_X_API_KEY"


def api_key_from_request(request: HttpRequest) -> APIKey:
    """The key in the request's `X-API-KEY` header; a missing, unknown or revoked one is a 401."""
    raw = str(request.META.get(HEADER, "")).strip()
    if not raw:
        raise DomainError(ErrorCode.NOT_AUTHENTICATED, "Send your API key in the X-API-KEY header.")
    key = api_key_authenticate(raw_key=raw)
    if key is None:
        raise DomainError(ErrorCode.NOT_AUTHENTICATED, "This API key is not valid.")
    return key


class APIKeyAuthentication(BaseAuthentication):
    """A request with `X-API-KEY` acts as the key's user; a bad key fails at once (401)."""

    def authenticate(self, request: Request) -> tuple[Any, APIKey] | None:
        if not request.META.get(HEADER):
            return None
        try:
            key = api_key_from_request(request)
        except DomainError as exc:
            raise AuthenticationFailed(exc.msg) from exc
        return key.user, key

    def authenticate_header(self, request: Request) -> str:
        return "X-API-KEY"


class HasAPIKey(BasePermission):
    """The public API v1: a valid `X-API-KEY` and nothing else (no session, no admin token)."""

    def has_permission(self, request: Request, view: Any) -> bool:
        return isinstance(request.auth, APIKey)

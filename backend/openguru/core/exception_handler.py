"""Map every API error to `{"code", "msg"}` JSON. Unknown exceptions are logged, never shown."""

import logging
from typing import Any

from django.conf import settings
from django.core.exceptions import PermissionDenied, RequestDataTooBig, ValidationError
from django.http import Http404, HttpRequest, JsonResponse
from django.utils.deprecation import MiddlewareMixin
from rest_framework import exceptions
from rest_framework.response import Response

from openguru.core.disk import REQUEST, disk_full_cause, disk_full_error
from openguru.core.errors import DATABASE_DOWN, DomainError, ErrorCode, database_unavailable

logger = logging.getLogger(__name__)

_DRF_CODES: list[tuple[type[exceptions.APIException], ErrorCode, str]] = [
    (exceptions.ParseError, ErrorCode.MALFORMED_JSON, "The request body is not valid JSON."),
    (exceptions.NotAuthenticated, ErrorCode.NOT_AUTHENTICATED, "Sign in or send an admin token."),
    (exceptions.AuthenticationFailed, ErrorCode.NOT_AUTHENTICATED, "The credentials are invalid."),
    (exceptions.PermissionDenied, ErrorCode.PERMISSION_DENIED, "You may not do this."),
    (exceptions.NotFound, ErrorCode.NOT_FOUND, "Not found."),
    (exceptions.MethodNotAllowed, ErrorCode.METHOD_NOT_ALLOWED, "This method is not allowed here."),
    (exceptions.UnsupportedMediaType, ErrorCode.UNSUPPORTED_MEDIA_TYPE, "Unsupported media type."),
    (exceptions.Throttled, ErrorCode.RATE_LIMITED, "Too many requests; try again shortly."),
]


def error_response(error: DomainError) -> Response:
    response = Response(error.as_dict(), status=error.http_status)
    if error.retry_after is not None:
        response["Retry-After"] = str(error.retry_after)
    return response


def json_error(error: DomainError, *, body: dict[str, Any] | None = None) -> JsonResponse:
    """The same error body for plain (async) Django views; `body` for a channel whose clients
    read the error in their own shape as well."""
    response = JsonResponse(error.as_dict() if body is None else body, status=error.http_status)
    if error.retry_after is not None:
        response["Retry-After"] = str(error.retry_after)
    return response


def _first_message(detail: Any) -> str:
    if isinstance(detail, dict):
        field, value = next(iter(detail.items()))
        inner = _first_message(value)
        return inner if field == "non_field_errors" else f"{field}: {inner}"
    if isinstance(detail, list) and detail:
        return _first_message(detail[0])
    return str(detail)


def to_domain_error(exc: Exception) -> DomainError | None:
    if isinstance(exc, DomainError):
        return exc
    if disk_full_cause(exc) is not None:  # an upload, a temporary file: an admin's to fix
        logger.warning("The disk is full: %s", exc)
        return disk_full_error(REQUEST)
    if isinstance(exc, DATABASE_DOWN):
        logger.warning("The database is down: %s", exc)
        return database_unavailable()
    if isinstance(exc, RequestDataTooBig):
        limit_mb = settings.DATA_UPLOAD_MAX_MEMORY_SIZE / (1024 * 1024)
        msg = f"The request is larger than the {limit_mb:g} MB the server accepts."
        return DomainError(ErrorCode.FILE_TOO_LARGE, msg)
    if isinstance(exc, Http404):
        return DomainError(ErrorCode.NOT_FOUND, "Not found.")
    if isinstance(exc, PermissionDenied):
        return DomainError(ErrorCode.PERMISSION_DENIED, "You may not do this.")
    if isinstance(exc, ValidationError):
        return DomainError(ErrorCode.INVALID_INPUT, "; ".join(exc.messages))
    if isinstance(exc, exceptions.ValidationError):
        return DomainError(ErrorCode.INVALID_INPUT, _first_message(exc.detail), detail=exc.detail)
    for drf_type, code, msg in _DRF_CODES:
        if isinstance(exc, drf_type):
            return DomainError(code, msg)
    if isinstance(exc, exceptions.APIException):
        return DomainError(ErrorCode.INVALID_INPUT, str(exc.detail))
    return None


def api_exception_handler(exc: Exception, context: dict[str, Any]) -> Response:
    error = to_domain_error(exc)
    if error is None:
        logger.exception("Unhandled error in %s", context.get("view"))
        error = DomainError(ErrorCode.INTERNAL, "Something went wrong on our side.")
        return Response(error.as_dict(), status=500)
    response = error_response(error)
    wait = getattr(exc, "wait", None)
    if isinstance(exc, exceptions.Throttled) and wait:
        response["Retry-After"] = str(int(wait))
    return response


class DatabaseOutageMiddleware(MiddlewareMixin):
    """A plain (non-DRF) view that lost the database answers 503 in words, not a bare 500:
    the answer endpoints, the widget and the bots' webhooks alike. DRF views get the same
    through `api_exception_handler`."""

    def process_exception(self, request: HttpRequest, exception: Exception) -> JsonResponse | None:
        if not isinstance(exception, DATABASE_DOWN):
            return None
        logger.warning("The database is down: %s", exception)
        return json_error(database_unavailable())

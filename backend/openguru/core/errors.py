"""The one domain error type. Services raise it; `exception_handler` maps it to HTTP."""

from enum import StrEnum
from http import HTTPStatus

from django.db import InterfaceError, OperationalError

# The database went away (a restart, a failover): a passing outage, never the user's fault.
DATABASE_DOWN = (OperationalError, InterfaceError)


class ErrorCode(StrEnum):
    # Request problems
    INVALID_INPUT = "invalid_input"
    MALFORMED_JSON = "malformed_json"
    UNSUPPORTED_MEDIA_TYPE = "unsupported_media_type"
    NOT_FOUND = "not_found"
    GURU_NOT_FOUND = "guru_not_found"
    SOURCE_NOT_FOUND = "source_not_found"
    QUESTION_NOT_FOUND = "question_not_found"
    CONFLICT = "conflict"
    METHOD_NOT_ALLOWED = "method_not_allowed"
    REQUEST_TOO_LARGE = "request_too_large"  # the body is over REQUEST_BODY_MAX_BYTES
    # Auth
    NOT_AUTHENTICATED = "not_authenticated"
    PERMISSION_DENIED = "permission_denied"
    INVALID_CREDENTIALS = "invalid_credentials"  # sign-in: wrong username or password
    NOT_STAFF = "not_staff"  # sign-in: a real user, but not an administrator
    PASSWORD_SIGN_IN_OFF = "password_sign_in_off"  # noqa: S105  (a code, not a password)
    API_KEY_LIMIT = "api_key_limit"
    LINK_INVALID = "link_invalid"  # an invitation or password-reset link: used, expired or wrong
    RATE_LIMITED = "rate_limited"
    # A private guru's widget: the page sent no identity token, or one that is wrong or too old
    WIDGET_TOKEN_REQUIRED = "widget_token_required"  # noqa: S105 (a code, not a secret)
    WIDGET_TOKEN_INVALID = "widget_token_invalid"  # noqa: S105
    WIDGET_TOKEN_EXPIRED = "widget_token_expired"  # noqa: S105
    # Answers
    NO_ANSWER = "no_answer"  # the guru declined: its sources don't cover the question
    OVERLOADED = "overloaded"  # the process is answering all it can: try again shortly
    # Ingestion (user-facing reasons stored on a failed source)
    FETCH_FAILED = "fetch_failed"
    URL_NOT_ALLOWED = "url_not_allowed"
    FILE_TOO_LARGE = "file_too_large"
    INVALID_FILE = "invalid_file"
    NO_TRANSCRIPT = "no_transcript"
    REPO_NOT_FOUND = "repo_not_found"
    # A single Jira issue or Zendesk article on a site the guru has no source (no credentials) on
    SITE_NOT_CONNECTED = "site_not_connected"
    NOTHING_TO_INDEX = "nothing_to_index"
    DISK_FULL = "disk_full"  # the server ran out of disk space (or quota): an admin must free some
    # Providers
    PROVIDER_UNAVAILABLE = "provider_unavailable"
    PROVIDER_ERROR = "provider_error"
    NOT_CONFIGURED = "not_configured"
    INTERNAL = "internal_error"


_STATUS = {
    ErrorCode.INVALID_INPUT: HTTPStatus.BAD_REQUEST,
    ErrorCode.MALFORMED_JSON: HTTPStatus.BAD_REQUEST,
    ErrorCode.UNSUPPORTED_MEDIA_TYPE: HTTPStatus.UNSUPPORTED_MEDIA_TYPE,
    ErrorCode.NOT_FOUND: HTTPStatus.NOT_FOUND,
    ErrorCode.GURU_NOT_FOUND: HTTPStatus.NOT_FOUND,
    ErrorCode.SOURCE_NOT_FOUND: HTTPStatus.NOT_FOUND,
    ErrorCode.QUESTION_NOT_FOUND: HTTPStatus.NOT_FOUND,
    ErrorCode.CONFLICT: HTTPStatus.CONFLICT,
    ErrorCode.METHOD_NOT_ALLOWED: HTTPStatus.METHOD_NOT_ALLOWED,
    ErrorCode.REQUEST_TOO_LARGE: HTTPStatus.REQUEST_ENTITY_TOO_LARGE,
    ErrorCode.NOT_AUTHENTICATED: HTTPStatus.UNAUTHORIZED,
    ErrorCode.PERMISSION_DENIED: HTTPStatus.FORBIDDEN,
    ErrorCode.INVALID_CREDENTIALS: HTTPStatus.BAD_REQUEST,
    ErrorCode.NOT_STAFF: HTTPStatus.FORBIDDEN,
    ErrorCode.PASSWORD_SIGN_IN_OFF: HTTPStatus.FORBIDDEN,
    ErrorCode.API_KEY_LIMIT: HTTPStatus.BAD_REQUEST,
    ErrorCode.LINK_INVALID: HTTPStatus.BAD_REQUEST,
    ErrorCode.RATE_LIMITED: HTTPStatus.TOO_MANY_REQUESTS,
    ErrorCode.WIDGET_TOKEN_REQUIRED: HTTPStatus.UNAUTHORIZED,
    ErrorCode.WIDGET_TOKEN_INVALID: HTTPStatus.UNAUTHORIZED,
    ErrorCode.WIDGET_TOKEN_EXPIRED: HTTPStatus.UNAUTHORIZED,
    ErrorCode.NO_ANSWER: HTTPStatus.BAD_REQUEST,
    ErrorCode.OVERLOADED: HTTPStatus.SERVICE_UNAVAILABLE,
    ErrorCode.URL_NOT_ALLOWED: HTTPStatus.BAD_REQUEST,
    ErrorCode.FILE_TOO_LARGE: HTTPStatus.REQUEST_ENTITY_TOO_LARGE,
    ErrorCode.INVALID_FILE: HTTPStatus.BAD_REQUEST,
    ErrorCode.DISK_FULL: HTTPStatus.INSUFFICIENT_STORAGE,
    ErrorCode.PROVIDER_UNAVAILABLE: HTTPStatus.SERVICE_UNAVAILABLE,
    ErrorCode.PROVIDER_ERROR: HTTPStatus.BAD_GATEWAY,
    ErrorCode.NOT_CONFIGURED: HTTPStatus.SERVICE_UNAVAILABLE,
    ErrorCode.INTERNAL: HTTPStatus.INTERNAL_SERVER_ERROR,
}


class DomainError(Exception):
    """An error a user may see: a stable `code` and a human `msg` (never a stack trace)."""

    def __init__(
        self, code: ErrorCode, msg: str, *, detail: object = None, retry_after: int | None = None
    ) -> None:
        super().__init__(msg)
        self.code = code
        self.msg = msg
        self.detail = detail
        self.retry_after = retry_after  # seconds, sent as Retry-After (rate limits, overload)

    @property
    def http_status(self) -> int:
        return int(_STATUS.get(self.code, HTTPStatus.BAD_REQUEST))

    def as_dict(self) -> dict[str, object]:
        body: dict[str, object] = {"code": str(self.code), "msg": self.msg}
        if self.detail is not None:
            body["detail"] = self.detail
        return body

    def __str__(self) -> str:
        return f"{self.code}: {self.msg}"


class TransientError(DomainError):
    """A failure worth retrying (timeouts, 5xx, overload). Tasks retry it with backoff."""


def database_unavailable() -> "DomainError":
    return DomainError(
        ErrorCode.PROVIDER_UNAVAILABLE,
        "The database is not answering right now; try again in a moment.",
        retry_after=5,
    )

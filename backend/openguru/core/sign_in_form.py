"""The console's sign-in form as the browser itself posts it (before the page's JavaScript has
loaded, or without it): urlencoded fields in the body, answered with a redirect, never JSON,
and the password never in a URL.

Such a browser has no csrftoken cookie to echo yet, so a forged sign-in (one that would put the
victim's browser in the attacker's account) is told apart by the Origin header that browsers
send with every form POST: it must be the site's own (`CSRF_TRUSTED_ORIGINS`, or the API's).
"""

from collections.abc import Callable
from typing import Any
from urllib.parse import urlencode

from django.conf import settings
from django.http import HttpRequest, HttpResponseRedirect

from openguru.core.errors import DomainError, ErrorCode

SIGN_IN_PAGE = "/console/sign-in"
CONSOLE = "/console"
_FORM_TYPES = ("application/x-www-form-urlencoded", "multipart/form-data")


def is_form_post(request: HttpRequest) -> bool:
    return request.content_type in _FORM_TYPES


def console_path(value: str | None) -> str:
    """Where to go after signing in: a console path only (`next` comes from the address bar
    and must not lead to another site)."""
    path = str(value or "")
    if path.startswith(CONSOLE) and not path.startswith(("//", "/\\")) and "\\" not in path:
        return path
    return CONSOLE


def origin_trusted(request: HttpRequest) -> bool:
    origin = str(request.headers.get("Origin") or "").rstrip("/")
    if not origin or origin == "null":
        return False
    own = f"{request.scheme}://{request.get_host()}"
    return origin == own or origin in settings.CSRF_TRUSTED_ORIGINS


def sign_in_form_post(request: HttpRequest, *, sign_in: Callable[..., Any]) -> HttpResponseRedirect:
    if not origin_trusted(request):
        raise DomainError(
            ErrorCode.PERMISSION_DENIED, "CSRF check failed: this form was sent from another site."
        )
    next_path = console_path(request.POST.get("next"))
    username = str(request.POST.get("username") or "")[:150]
    password = str(request.POST.get("password") or "")[:1024]
    if not username or not password:
        return _see_other(_sign_in_page(ErrorCode.INVALID_INPUT, next_path))
    try:
        sign_in(request, username=username, password=password)
    except DomainError as exc:
        return _see_other(_sign_in_page(exc.code, next_path))
    return _see_other(next_path)


def _sign_in_page(error: ErrorCode, next_path: str) -> str:
    return f"{SIGN_IN_PAGE}?{urlencode({'error': error.value, 'next': next_path})}"


def _see_other(location: str) -> HttpResponseRedirect:
    """303: the browser follows with a GET, so a reload never posts the password again."""
    response = HttpResponseRedirect(location)
    response.status_code = 303
    return response

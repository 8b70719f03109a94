"""The public answer endpoints, served by Django without the site's middleware.

Every class in settings.MIDDLEWARE is a sync `MiddlewareMixin`: under ASGI, Django runs each
one's process_request/process_response in a worker thread, about a dozen thread hops per request
(1.6-2.1 ms more per request than with no middleware, measured through uvicorn on 2 cores), all
of them before an answer's stream starts. The anonymous answer endpoints use none of what they
provide: no session, user, messages or CSRF token (the views are csrf_exempt), no HTML to frame.
So views marked `@skips_site_middleware` are reached through a second Django handler whose
middleware is ANSWER_MIDDLEWARE (async-native); every other path goes to the usual one. Which
view a path reaches comes from the URLconf itself, so the two cannot drift apart.
"""

from collections.abc import Awaitable, Callable
from typing import Any, TypeVar

from django.conf import settings
from django.core.handlers.asgi import ASGIHandler
from django.http import HttpRequest, HttpResponseBase
from django.test.utils import override_settings
from django.urls import Resolver404, resolve
from django.utils.decorators import async_only_middleware

Scope = dict[str, Any]
ASGIApp = Callable[[Scope, Any, Any], Awaitable[None]]

V = TypeVar("V", bound=Callable[..., Any])
_MARK = "skips_site_middleware"


def skips_site_middleware(view: V) -> V:
    """Serve this view without settings.MIDDLEWARE under ASGI (outermost decorator)."""
    setattr(view, _MARK, True)
    return view


def takes_lean_handler(path: str) -> bool:
    try:
        match = resolve(path)
    except Resolver404:
        return False
    return getattr(match.func, _MARK, False) is True


class AnswerASGIHandler(ASGIHandler):
    """Django with ANSWER_MIDDLEWARE in place of MIDDLEWARE."""

    def load_middleware(self, is_async: bool = False) -> None:
        # Django builds a handler's chain from settings.MIDDLEWARE, once, when the handler is
        # made (at start-up, before any request): swap the setting for just that moment.
        with override_settings(MIDDLEWARE=settings.ANSWER_MIDDLEWARE):
            super().load_middleware(is_async=is_async)


def application_with_lean_answers(site: ASGIApp) -> ASGIApp:
    answers = AnswerASGIHandler()

    async def application(scope: Scope, receive: Any, send: Any) -> None:
        if scope["type"] == "http" and takes_lean_handler(scope.get("path", "")):
            await answers(scope, receive, send)
        else:
            await site(scope, receive, send)

    return application


@async_only_middleware
def api_security_headers(
    get_response: Callable[[HttpRequest], Awaitable[HttpResponseBase]],
) -> Callable[[HttpRequest], Awaitable[HttpResponseBase]]:
    """The headers SecurityMiddleware gives an API response, without its thread hops."""

    async def middleware(request: HttpRequest) -> HttpResponseBase:
        response = await get_response(request)
        if settings.SECURE_CONTENT_TYPE_NOSNIFF:
            response.headers.setdefault("X-Content-Type-Options", "nosniff")
        if settings.SECURE_REFERRER_POLICY:
            response.headers.setdefault("Referrer-Policy", str(settings.SECURE_REFERRER_POLICY))
        return response

    return middleware

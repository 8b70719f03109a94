"""The public answer endpoints, served by Django without the site's middleware.

Every class in settings.MIDDLEWARE is a sync `MiddlewareMixin`: under ASGI, Django runs each
one's process_request/process_response in a worker thread, about a dozen thread hops per request
(1.6-2.1 ms more per request than with no middleware, measured through uvicorn on 2 cores), all
of them before an answer's stream starts. The anonymous answer endpoints use none of what they
provide: no session, user, messages or CSRF token (the views are csrf_exempt), no HTML to frame.
So views marked `@skips_site_middleware` are reached through a second Django handler whose
middleware is ANSWER_MIDDLEWARE (async-native); every other path goes to the usual one. Which
view a path reaches comes from the URLconf itself, so the two cannot drift apart.

Django also runs each request's thread-sensitive sync calls (the request_started/finished
signals' receivers, `response.close`) in a thread pool of its own, started for the request and
joined by another new thread at its end: two thread starts per request, more than the rest of a
cached answer. These endpoints make no thread-sensitive calls of their own (blocking work goes
to `core.threads.run_blocking`), so their requests share one long-lived thread for those few
short calls instead.
"""

from collections.abc import Awaitable, Callable
from concurrent.futures import ThreadPoolExecutor
from functools import lru_cache
from typing import Any, TypeVar

from asgiref.sync import ThreadSensitiveContext
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


@lru_cache(maxsize=4096)
def takes_lean_handler(path: str) -> bool:
    """Remembered per path (the URLconf does not change while a process runs); Django resolves
    the path again for the view, so an answer's path is resolved twice otherwise."""
    try:
        match = resolve(path)
    except Resolver404:
        return False
    return getattr(match.func, _MARK, False) is True


class AnswerASGIHandler(ASGIHandler):
    """Django with ANSWER_MIDDLEWARE in place of MIDDLEWARE, and one thread for every
    request's thread-sensitive calls."""

    def __init__(self) -> None:
        super().__init__()
        self.thread_sensitive = ThreadPoolExecutor(max_workers=1, thread_name_prefix="answers")

    async def __call__(self, scope: Scope, receive: Any, send: Any) -> None:
        if scope["type"] != "http":
            raise ValueError(f"Django can only handle ASGI/HTTP connections, not {scope['type']}.")
        async with ThreadSensitiveContext(executor=self.thread_sensitive):
            await self.handle(scope, receive, send)

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

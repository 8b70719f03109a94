"""The request being served, for the audit log: who acts and from where, without handing the
request through every service. A Celery task or a management command has none (the system)."""

from collections.abc import Awaitable, Callable
from contextvars import ContextVar
from inspect import iscoroutinefunction
from typing import Any

from django.http import HttpRequest, HttpResponseBase
from django.utils.decorators import sync_and_async_middleware

_request: ContextVar[HttpRequest | None] = ContextVar("audit_request", default=None)


def current_request() -> HttpRequest | None:
    return _request.get()


@sync_and_async_middleware
def audit_request_middleware(get_response: Callable[[HttpRequest], Any]) -> Any:
    """Holds the request for the audit log while it is served. DRF authenticates inside the
    view and writes the user (and the API key, as `auth`) onto this same request, so the log
    reads who acted when a service records the change."""
    if iscoroutinefunction(get_response):

        async def async_middleware(request: HttpRequest) -> HttpResponseBase:
            token = _request.set(request)
            try:
                response: Awaitable[HttpResponseBase] = get_response(request)
                return await response
            finally:
                _request.reset(token)

        return async_middleware

    def middleware(request: HttpRequest) -> HttpResponseBase:
        token = _request.set(request)
        try:
            response: HttpResponseBase = get_response(request)
            return response
        finally:
            _request.reset(token)

    return middleware

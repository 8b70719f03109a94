"""Counts and times every HTTP request by its route pattern (not its path: one series per
route, whatever the slugs and ids in the address)."""

import time
from collections.abc import Awaitable, Callable
from inspect import iscoroutinefunction

from django.http import HttpRequest
from django.http.response import HttpResponseBase
from django.utils.decorators import sync_and_async_middleware

from openguru.core.metrics import HTTP_LATENCY, HTTP_REQUESTS

UNMATCHED = "<unmatched>"  # a 404 for an address no route takes


def _observe(request: HttpRequest, response: HttpResponseBase, started: float) -> None:
    match = request.resolver_match
    route = match.route if match is not None and match.route else UNMATCHED
    method = request.method or ""
    HTTP_LATENCY.labels(route=route, method=method).observe(time.perf_counter() - started)
    HTTP_REQUESTS.labels(route=route, method=method, status=str(response.status_code)).inc()


@sync_and_async_middleware
def http_metrics(
    get_response: Callable[[HttpRequest], HttpResponseBase | Awaitable[HttpResponseBase]],
) -> Callable[[HttpRequest], HttpResponseBase | Awaitable[HttpResponseBase]]:
    # Async under ASGI (no thread hop on the answer streams' short middleware chain).
    if iscoroutinefunction(get_response):

        async def async_middleware(request: HttpRequest) -> HttpResponseBase:
            started = time.perf_counter()
            response = await get_response(request)
            _observe(request, response, started)
            return response

        return async_middleware

    def middleware(request: HttpRequest) -> HttpResponseBase:
        started = time.perf_counter()
        response = get_response(request)
        assert isinstance(response, HttpResponseBase)
        _observe(request, response, started)
        return response

    return middleware

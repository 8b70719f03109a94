"""CORS for the embeddable widget's endpoints, by django-cors-headers.

The widget runs on other sites and sends `Authorization: <widget id>` with JSON, so browsers
send a preflight first. A preflight carries no Authorization header: it can only be decided
from its Origin, which is granted when any widget id (of any guru) allows that origin; the
request itself is then checked against its own widget id's pattern (`widget_auth`), so a
site granted for one guru's widget cannot use another's. Paths outside the widget's
(`CORS_URLS_REGEX`) get no CORS headers at all, and an origin no widget id allows gets no
Access-Control-Allow-Origin: the browser then refuses to send the request.

django-cors-headers asks its `check_request_enabled` signal, synchronously, whether an origin
is granted; under ASGI the middleware runs on the event loop, where the database may not be
read. So this middleware looks the origin up first (in a worker thread under ASGI) and the
signal receiver only reads the answer off the request. It runs in both middleware chains:
the site's, and the lean one of the streaming views (`openguru/core/asgi.py`), where the
widget's ask is served. The library's middleware is async-native, so other paths of the lean
chain pay one regular-expression match and no thread hop.
"""

import re
from collections.abc import Awaitable, Callable
from typing import Any

from asgiref.sync import iscoroutinefunction, markcoroutinefunction
from corsheaders.conf import conf
from corsheaders.middleware import CorsMiddleware
from corsheaders.signals import check_request_enabled
from django.dispatch import receiver
from django.http import HttpRequest
from django.http.response import HttpResponseBase
from django.utils.log import log_response

from openguru.core.errors import DomainError, ErrorCode
from openguru.core.exception_handler import json_error
from openguru.core.threads import run_blocking
from openguru.integrations.widget.selectors import widget_origin_known

_GRANTED = "_widget_origin_granted"

Response = HttpResponseBase | Awaitable[HttpResponseBase]


def is_widget_path(path: str) -> bool:
    return re.match(conf.CORS_URLS_REGEX, path) is not None


def _origin(request: HttpRequest) -> str:
    return str(request.headers.get("Origin") or "")


def _needs_lookup(request: HttpRequest) -> bool:
    return bool(_origin(request)) and is_widget_path(request.path_info)


def _grant(request: HttpRequest, origin: str) -> None:
    setattr(request, _GRANTED, widget_origin_known(origin=origin))


class WidgetCorsMiddleware:
    sync_capable = True
    async_capable = True

    def __init__(self, get_response: Callable[[HttpRequest], Any]) -> None:
        self.cors = CorsMiddleware(get_response)
        self.async_mode = iscoroutinefunction(get_response)
        if self.async_mode:
            markcoroutinefunction(self)

    def __call__(self, request: HttpRequest) -> Response:
        if self.async_mode:
            return self._acall(request)
        if _needs_lookup(request):
            _grant(request, _origin(request))
            if _refused_preflight(request):
                return _not_allowed(request)
        return self.cors(request)

    async def _acall(self, request: HttpRequest) -> HttpResponseBase:
        if _needs_lookup(request):
            await run_blocking(_grant, request, _origin(request))
            if _refused_preflight(request):
                return _not_allowed(request)
        response = self.cors(request)
        assert not isinstance(response, HttpResponseBase)
        return await response


def _refused_preflight(request: HttpRequest) -> bool:
    return (
        request.method == "OPTIONS"
        and "Access-Control-Request-Method" in request.headers
        and getattr(request, _GRANTED, False) is not True
    )


def _not_allowed(request: HttpRequest) -> HttpResponseBase:
    """A preflight from a site no widget id allows: a 401 with no CORS grant. The browser
    refuses to send the request itself, and the refusal is in the server's log."""
    error = DomainError(
        ErrorCode.NOT_AUTHENTICATED, f"{_origin(request)} may not use this site's widgets."
    )
    response = json_error(error)
    log_response("Widget origin refused: %s", request.path, response=response, request=request)
    return response


@receiver(check_request_enabled, dispatch_uid="widget_origin_granted")
def widget_origin_granted(sender: Any, request: HttpRequest, **kwargs: Any) -> bool:
    return getattr(request, _GRANTED, False) is True

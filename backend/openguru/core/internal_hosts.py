"""Requests from inside the deployment, served without the redirect to HTTPS.

In production Django redirects plain HTTP to HTTPS (SECURE_SSL_REDIRECT). TLS ends at the
proxy in front, which says the original scheme in X-Forwarded-Proto; the deployment's own
services reach the backend over the private network in plain HTTP without a proxy: the UI's
server renders pages from `http://backend:8000/api/...`, probes and scrapers call it directly.
Redirected to `https://backend/...`, which nothing serves, every such call would fail.

So a request that names one of INTERNAL_HOSTS and carries no X-Forwarded-Proto (it did not come
through the proxy, which always sets the header) goes to a second Django handler whose
SecurityMiddleware was made with the redirect off; everything else goes to the usual one.
Public traffic is redirected whatever Host it sends: it always comes through the proxy.

Django's own SecurityMiddleware stays in MIDDLEWARE: a subclass in its place would turn off
`check --deploy`'s HSTS and redirect checks, which look for that class by its path.
"""

from typing import Any

from django.conf import settings
from django.core.handlers.asgi import ASGIHandler
from django.http.request import split_domain_port
from django.test.utils import override_settings

from openguru.core.asgi import ASGIApp, Scope


class InternalASGIHandler(ASGIHandler):
    """Django with the site's middleware, its SecurityMiddleware not redirecting to HTTPS."""

    def load_middleware(self, is_async: bool = False) -> None:
        # SecurityMiddleware reads the setting once, when the chain is built (at start-up).
        with override_settings(SECURE_SSL_REDIRECT=False):
            super().load_middleware(is_async=is_async)


def _proxy_header() -> bytes:
    """The header the TLS proxy sets (X-Forwarded-Proto), as it appears in an ASGI scope."""
    meta_name = (settings.SECURE_PROXY_SSL_HEADER or ("HTTP_X_FORWARDED_PROTO", ""))[0]
    return meta_name.removeprefix("HTTP_").replace("_", "-").lower().encode("latin-1")


def is_internal_request(
    scope: Scope, *, internal_hosts: frozenset[str], proxy_header: bytes
) -> bool:
    host = b""
    for name, value in scope.get("headers", []):
        if name == proxy_header:
            return False
        if name == b"host":
            host = value
    domain, _ = split_domain_port(host.decode("latin-1"))
    return domain in internal_hosts


def with_internal_hosts(site: ASGIApp) -> ASGIApp:
    """The site's ASGI app, with internal requests sent to an InternalASGIHandler. Unchanged when
    nothing is redirected (plain HTTP, or SSL redirect off) or no internal host is named."""
    if not (settings.SECURE_SSL_REDIRECT and settings.INTERNAL_HOSTS):
        return site
    internal = InternalASGIHandler()
    hosts = frozenset(settings.INTERNAL_HOSTS)
    proxy_header = _proxy_header()

    async def application(scope: Scope, receive: Any, send: Any) -> None:
        if scope["type"] == "http" and is_internal_request(
            scope, internal_hosts=hosts, proxy_header=proxy_header
        ):
            await internal(scope, receive, send)
        else:
            await site(scope, receive, send)

    return application

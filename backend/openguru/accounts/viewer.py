"""Who reads a page of the public site: the person whose session cookie came with the request,
else anonymous. The site's endpoints take no credentials (a stale one is no error), and its
streaming ones run without the session middleware (`core/asgi.py`), so the cookie is read
here, only where a guru's access is decided."""

from importlib import import_module
from typing import Any

from django.conf import settings
from django.contrib import auth
from django.contrib.auth.models import AnonymousUser
from django.http import HttpRequest


def request_viewer(request: HttpRequest) -> Any:
    """Blocking (the session and the user are read from the database). Takes Django's request
    or DRF's (whose `user` is only what its authentication classes found)."""
    request = getattr(request, "_request", request)
    cookie = request.COOKIES.get(settings.SESSION_COOKIE_NAME)
    if not cookie:
        return AnonymousUser()
    if not hasattr(request, "session"):
        engine = import_module(settings.SESSION_ENGINE)
        request.session = engine.SessionStore(cookie)
    return auth.get_user(request)

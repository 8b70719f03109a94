"""Per-IP fixed-window rate limit for public asks (Django cache: local memory or Redis)."""

import time

from django.conf import settings
from django.core.cache import cache
from django.http import HttpRequest

from openguru.core.errors import DomainError, ErrorCode


def client_ip(request: HttpRequest) -> str:
    # Behind nginx the real address is in X-Real-IP (set by our config, not by the client).
    return str(request.META.get("HTTP_X_REAL_IP") or request.META.get("REMOTE_ADDR") or "unknown")


def ask_rate_limit_check(*, ip: str) -> None:
    limit = settings.ASK_RATE_LIMIT_PER_MINUTE
    if limit <= 0:
        return
    key = f"ask-rate:{ip}:{int(time.time() // 60)}"
    if cache.add(key, 1, timeout=70):
        return
    try:
        count = cache.incr(key)
    except ValueError:  # expired between add and incr
        cache.set(key, 1, timeout=70)
        return
    if count > limit:
        raise DomainError(ErrorCode.RATE_LIMITED, "Too many questions; try again in a minute.")

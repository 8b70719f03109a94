"""Per-IP fixed-window rate limit for public asks (Django cache: local memory or Redis)."""

import ipaddress
import time
from collections.abc import Sequence
from functools import lru_cache

from django.conf import settings
from django.core.cache import cache
from django.http import HttpRequest

from openguru.core.errors import DomainError, ErrorCode


def client_ip(request: HttpRequest) -> str:
    """The address asks are counted against: the peer's, or the X-Real-IP header when the peer
    is a trusted proxy (`TRUSTED_PROXIES`; our nginx sets the header). From anyone else the
    header is the client's own claim: believing it would let every request name a fresh
    address and never be limited."""
    peer = str(request.META.get("REMOTE_ADDR") or "unknown")
    claimed = request.META.get("HTTP_X_REAL_IP")
    if claimed and _is_trusted_proxy(peer):
        return str(claimed).strip()
    return peer


IPNetwork = ipaddress.IPv4Network | ipaddress.IPv6Network


def trusted_proxy_networks(values: Sequence[str]) -> tuple[IPNetwork, ...]:
    """`TRUSTED_PROXIES` entries as networks; ValueError names a malformed one."""
    return tuple(ipaddress.ip_network(v.strip(), strict=False) for v in values if v.strip())


_networks = lru_cache(maxsize=4)(trusted_proxy_networks)  # parsed once per setting value


def _is_trusted_proxy(peer: str) -> bool:
    networks = _networks(tuple(settings.TRUSTED_PROXIES))
    if not networks:
        return False
    try:
        address = ipaddress.ip_address(peer)
    except ValueError:
        return False
    return any(address in network for network in networks)


def ask_rate_limit_check(*, ip: str) -> None:
    _per_minute(
        f"ask-rate:{ip}",
        settings.ASK_RATE_LIMIT_PER_MINUTE,
        "Too many questions; try again in a minute.",
    )


def api_key_rate_limit_check(*, key_id: int) -> None:
    """Every /api/v1/ request counts against its key (`API_RATE_LIMIT_PER_MINUTE`)."""
    _per_minute(
        f"api-rate:{key_id}",
        settings.API_RATE_LIMIT_PER_MINUTE,
        "Too many requests with this API key; try again shortly.",
    )


def _per_minute(name: str, limit: int, msg: str) -> None:
    """A fixed one-minute window; past `limit` a RATE_LIMITED error says when it reopens."""
    if limit <= 0:
        return
    now = time.time()
    key = f"{name}:{int(now // 60)}"
    if cache.add(key, 1, timeout=70):
        return
    try:
        count = cache.incr(key)
    except ValueError:  # expired between add and incr
        cache.set(key, 1, timeout=70)
        return
    if count > limit:
        retry_after = max(1, 60 - int(now % 60))
        raise DomainError(ErrorCode.RATE_LIMITED, msg, retry_after=retry_after)

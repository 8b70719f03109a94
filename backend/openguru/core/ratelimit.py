"""Fixed-window rate limits for public asks, per client, and for API keys (Django cache: local
memory or Redis)."""

import hashlib
import ipaddress
import time
from collections.abc import Sequence
from functools import lru_cache
from typing import Protocol

from django.conf import settings
from django.core.cache import cache
from django.http import HttpRequest

from openguru.core.cache import cache_guarded
from openguru.core.errors import DomainError, ErrorCode


class AskLimits(Protocol):
    """A guru's own anonymous-ask limits (None: the deployment's); a `Guru` is one."""

    pk: int
    anonymous_asks_per_hour: int | None
    anonymous_asks_per_day: int | None


def client_ip(request: HttpRequest) -> str:
    """The address asks are counted against: the peer's, unless the peer is a trusted proxy
    (`TRUSTED_PROXIES`): then the client it names. In X-Forwarded-For each proxy appends the
    address it was reached from, so the client is the right-most address that is not itself
    a trusted proxy (what lies left of it is whatever the client claimed); without that
    header, X-Real-IP (our nginx sets both). From anyone else the headers are the client's own
    claim: believing them would let every request name a fresh address and never be limited."""
    peer = str(request.META.get("REMOTE_ADDR") or "unknown")
    if not _is_trusted_proxy(peer):
        return peer
    forwarded = _forwarded_client(str(request.META.get("HTTP_X_FORWARDED_FOR") or ""))
    if forwarded:
        return forwarded
    claimed = str(request.META.get("HTTP_X_REAL_IP") or "").strip()
    return claimed or peer


def _forwarded_client(header: str) -> str:
    """The client an X-Forwarded-For chain names ("" for none): walking from the right past
    our own proxies, the first other address; the left-most when every hop is ours."""
    hops = [hop.strip() for hop in header.split(",") if hop.strip()]
    for hop in reversed(hops):
        if not _is_trusted_proxy(hop):
            return hop
    return hops[0] if hops else ""


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
    # Node reports an IPv4 peer on a dual-stack socket as ::ffff:127.0.0.1.
    if isinstance(address, ipaddress.IPv6Address) and address.ipv4_mapped:
        address = address.ipv4_mapped
    return any(address in network for network in networks)


MINUTE, HOUR, DAY = 60, 3600, 86400


def client_fingerprint(ip: str) -> str:
    """What limits count against instead of the address itself: a keyed SHA-256, so no raw
    address is ever stored (not even as a cache key in Redis)."""
    return hashlib.sha256(f"{ip}|{settings.SECRET_KEY}".encode()).hexdigest()[:32]


def ask_rate_limit_check(*, ip: str) -> None:
    _per_window(
        f"ask-rate:{client_fingerprint(ip)}",
        settings.ASK_RATE_LIMIT_PER_MINUTE,
        "Too many questions; try again in a minute.",
        seconds=MINUTE,
    )


def anonymous_ask_limit_check(*, ip: str, guru: AskLimits) -> None:
    """Anonymous questions to one guru from one client: at most the guru's (else the
    deployment's) number per hour and per day, so one visitor cannot spend the LLM budget.
    Other clients are unaffected."""
    who = f"anon-ask:{guru.pk}:{client_fingerprint(ip)}"
    per_hour = _guru_or_default(guru.anonymous_asks_per_hour, settings.ANONYMOUS_ASKS_PER_HOUR)
    per_day = _guru_or_default(guru.anonymous_asks_per_day, settings.ANONYMOUS_ASKS_PER_DAY)
    _per_window(
        f"{who}:hour",
        per_hour,
        f"You have asked {per_hour} questions this hour, the most this guru answers per "
        "visitor; please try again a little later.",
        seconds=HOUR,
    )
    _per_window(
        f"{who}:day",
        per_day,
        f"You have asked {per_day} questions today, the most this guru answers per visitor "
        "in a day; please come back tomorrow.",
        seconds=DAY,
    )


def _guru_or_default(value: int | None, default: int) -> int:
    return default if value is None else value


def api_key_rate_limit_check(*, key_id: int) -> None:
    """Every /api/v1/ request counts against its key (`API_RATE_LIMIT_PER_MINUTE`)."""
    _per_window(
        f"api-rate:{key_id}",
        settings.API_RATE_LIMIT_PER_MINUTE,
        "Too many requests with this API key; try again shortly.",
        seconds=MINUTE,
    )


def _per_window(name: str, limit: int, msg: str, *, seconds: int) -> None:
    """A fixed window of `seconds`; past `limit` a RATE_LIMITED error says when it reopens.
    `limit` 0 (or less) means no limit. With the cache down, nothing is limited (fail open: a
    limit that fails closed would turn a cache outage into an outage of every ask)."""
    if limit <= 0:
        return
    now = time.time()
    key = f"{name}:{seconds}:{int(now // seconds)}"
    count = cache_guarded(
        lambda: window_count(key, timeout=seconds + 10), use="rate_limit", default=0
    )
    if count > limit:
        retry_after = max(1, seconds - int(now % seconds))
        raise DomainError(ErrorCode.RATE_LIMITED, msg, retry_after=retry_after)


def window_count(key: str, *, timeout: int) -> int:
    """Count one more in the window `key` (created with `timeout`); the count so far."""
    if cache.add(key, 1, timeout=timeout):
        return 1
    try:
        return int(cache.incr(key))
    except ValueError:  # expired between add and incr
        cache.set(key, 1, timeout=timeout)
        return 1

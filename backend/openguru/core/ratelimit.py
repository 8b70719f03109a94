"""Fixed-window rate limits for public asks, per client, and for API keys (Django cache: local
memory or Redis)."""

import time
from typing import Protocol

from django.conf import settings

from openguru.core.cache import cache_guarded, window_count
from openguru.core.client_address import client_fingerprint
from openguru.core.errors import DomainError, ErrorCode


class AskLimits(Protocol):
    """A guru's own anonymous-ask limits (None: the deployment's); a `Guru` is one."""

    pk: int
    anonymous_asks_per_hour: int | None
    anonymous_asks_per_day: int | None


MINUTE, HOUR, DAY = 60, 3600, 86400


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

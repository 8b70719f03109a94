"""The Django cache on the request path (rate-limit windows, the failed sign-in counter, small
memos): when its server is down, a request goes on without it instead of failing with a 500.

Counters fail open: while the cache is unreachable nothing is limited, and a warning and the
`openguru_cache_errors_total` series say so. After a failure a process leaves the cache alone for
a few seconds, so a dead server costs one slow call now and then (the Redis client retries a
refused connection for most of a second), not one per request.
"""

import logging
import time
from collections.abc import Callable
from typing import TypeVar

from django.core.cache import cache
from redis.exceptions import RedisError

from openguru.core.metrics import cache_error_record

logger = logging.getLogger(__name__)

T = TypeVar("T")
# Redis (the production cache); OSError for a socket or disk of any other backend.
CACHE_DOWN = (RedisError, OSError)
SKIP_SECONDS = 10.0

_skip_until = 0.0


def cache_guarded(operation: Callable[[], T], *, use: str, default: T) -> T:
    """`operation()` on the cache, or `default` when the cache server is unreachable (or was a
    moment ago). `use` names the caller in the warning and the metric."""
    global _skip_until
    if time.monotonic() < _skip_until:
        return default
    try:
        return operation()
    except CACHE_DOWN as exc:
        _skip_until = time.monotonic() + SKIP_SECONDS
        cache_error_record(use=use)
        logger.warning(
            "cache unreachable (%s: %s): %s goes on without it for %.0f s",
            type(exc).__name__,
            exc,
            use,
            SKIP_SECONDS,
        )
        return default


def window_count(key: str, *, timeout: int) -> int:
    """Count one more in the window `key` (created with `timeout`); the count so far."""
    if cache.add(key, 1, timeout=timeout):
        return 1
    try:
        return int(cache.incr(key))
    except ValueError:  # expired between add and incr
        cache.set(key, 1, timeout=timeout)
        return 1

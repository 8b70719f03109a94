"""Failed sign-ins, counted per client address and per account, for every sign-in path: the
console's (`session_apis`) and Django's /admin/ (`admin_sign_in`).

Django sends `user_login_failed` whenever `authenticate()` turns credentials down; the receiver
counts that failure against the client (`client_ip`) and the account name. Before checking a
password each path asks `sign_in_throttle_check`: past either limit even the right password is
refused until the window ends. Per client stops one client guessing; per account stops many
clients guessing one password (at the cost that they can keep that account waiting: its owner
can still sign in through a shell, `manage.py changepassword`).
"""

from functools import partial
from typing import Any

from django.conf import settings
from django.contrib.auth.signals import user_login_failed
from django.core.cache import cache
from django.dispatch import receiver
from django.http import HttpRequest

from openguru.core.cache import cache_guarded, window_count
from openguru.core.client_address import client_fingerprint, client_ip
from openguru.core.errors import DomainError, ErrorCode


def _keys(request: HttpRequest, username: str) -> list[tuple[str, int]]:
    """The counters a sign-in attempt is checked against, each with its limit (0: none)."""
    client = f"sign-in-failures:client:{client_fingerprint(client_ip(request))}"
    account = f"sign-in-failures:account:{client_fingerprint(username.strip().lower())}"
    return [
        (client, settings.SIGN_IN_FAILURES_PER_CLIENT),
        (account, settings.SIGN_IN_FAILURES_PER_ACCOUNT),
    ]


def sign_in_throttle_check(*, request: HttpRequest, username: str) -> None:
    """A RATE_LIMITED error while this client or this account has failed too often. The cache
    down: nothing is limited (sign-ins fail open, like every limit here)."""
    for key, limit in _keys(request, username):
        failures = cache_guarded(partial(_failures, key), use="sign_in", default=0)
        if limit > 0 and failures >= limit:
            raise DomainError(
                ErrorCode.RATE_LIMITED,
                "Too many failed sign-ins; try again in a few minutes.",
                retry_after=settings.SIGN_IN_LOCKOUT_SECONDS,
            )


def sign_in_failure_record(*, request: HttpRequest, username: str) -> None:
    for key, _limit in _keys(request, username):
        count = partial(window_count, key, timeout=settings.SIGN_IN_LOCKOUT_SECONDS)
        cache_guarded(count, use="sign_in", default=0)


def _failures(key: str) -> int:
    return int(cache.get(key, 0))


@receiver(user_login_failed, dispatch_uid="sign_in_failure_counted")
def _on_sign_in_failed(
    sender: Any, credentials: dict[str, Any], request: HttpRequest | None = None, **kwargs: Any
) -> None:
    if request is not None:
        sign_in_failure_record(request=request, username=str(credentials.get("username") or ""))

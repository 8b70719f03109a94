"""Who asks, and what they may ask: the same rules on every channel.

- An anonymous visitor (the site, the widget) is counted by client address: a per-minute limit,
  then the guru's per hour and per day quota (`core/ratelimit.py`).
- An API key (a person's, or a bot integration's) counts each request against the key's
  per-minute limit, once, where the door reads the key (`key_asker`).
- Which gurus one may ask is the one access rule (`accounts/access.py`): active public gurus
  for anyone, private and inactive ones for admins and the people granted them; a door bound
  to one guru (a widget id, a bot integration) asks that one, having checked its own
  credential for it (a private guru's widget: a signed identity token).
"""

from dataclasses import dataclass

from django.contrib.auth.models import User

from openguru.accounts.access import guru_readable_get
from openguru.core.ratelimit import (
    anonymous_ask_limit_check,
    api_key_rate_limit_check,
    ask_rate_limit_check,
)
from openguru.gurus.models import Guru


@dataclass(frozen=True)
class Asker:
    """Who asks, as the door identified them."""

    ip: str | None = None  # an anonymous visitor's client address
    # A key's person: sessions are theirs. None for visitors and for the bots, whose sessions
    # are their threads'.
    user: User | None = None
    guru: Guru | None = None  # the one guru the door's credential is for, or already resolved
    # Who the access rule is asked about when it is not `user`: a signed-in visitor of the
    # site, whose asks stay anonymous (counted by address, sessions of nobody).
    reader: User | None = None


def key_asker(*, key_id: int, user: User | None, guru: Guru | None = None) -> Asker:
    """Blocking (cache). Someone asking with an API key: the request counts against the key's
    per-minute limit (429 `rate_limited` past it)."""
    api_key_rate_limit_check(key_id=key_id)
    return Asker(user=user, guru=guru)


def asker_guru(*, asker: Asker, slug: str) -> Guru:
    """Blocking (database). The guru asked; a missing one, or one the asker may not read, is a
    404 (the same answer, so a private guru's name is not confirmed)."""
    if asker.guru is not None:
        return asker.guru
    return guru_readable_get(actor=asker.user or asker.reader, slug=slug)


def asker_rate_check(*, asker: Asker) -> None:
    """Blocking (cache). A visitor's per-minute limit, before anything is looked up."""
    if asker.ip is not None:
        ask_rate_limit_check(ip=asker.ip)


def asker_quota_check(*, asker: Asker, guru: Guru) -> None:
    """Blocking (cache). A visitor's questions to this guru per hour and per day."""
    if asker.ip is not None:
        anonymous_ask_limit_check(ip=asker.ip, guru=guru)

"""Who may call /api/v1/<guru_slug>/…: a valid `X-API-KEY` within its rate limit, on a guru
its user can see. Shared by the DRF views and the async answer views."""

from dataclasses import dataclass

from django.http import HttpRequest

from openguru.accounts.access import Action, guru_permission
from openguru.answers.channels.access import Asker, asker_guru, key_asker
from openguru.core.errors import DomainError, ErrorCode
from openguru.gurus.models import Guru
from openguru.integrations.apikeys.auth import api_key_from_request
from openguru.integrations.models import APIKey


@dataclass(frozen=True)
class Caller:
    key: APIKey
    guru: Guru

    @property
    def asker(self) -> Asker:
        """The caller on the ask path, its guru already found."""
        return Asker(user=self.key.user, guru=self.guru)


def caller_guru(*, key: APIKey, guru_slug: str) -> Caller:
    """The key's rate limit is checked first (a rejected call costs no lookup), then the guru,
    by the access rule for the key's owner and its scope: a private or inactive guru it may not
    read is a 404 (the ask path's rules, `answers/channels`)."""
    asker = key_asker(key_id=key.pk, user=key.user)
    return Caller(key=key, guru=asker_guru(asker=asker, slug=guru_slug))


def caller_from_request(request: HttpRequest, guru_slug: str) -> Caller:
    """Blocking (database): run it in a worker thread from async views."""
    return caller_guru(key=api_key_from_request(request), guru_slug=guru_slug)


def require_staff(caller: Caller) -> None:
    """Changing a guru's sources is for keys of the people who manage it."""
    if not guru_permission(actor=caller.key.user, guru=caller.guru, action=Action.MANAGE):
        raise DomainError(ErrorCode.PERMISSION_DENIED, "This API key may not change sources.")

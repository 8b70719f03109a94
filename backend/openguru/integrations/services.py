"""API keys (stored hashed) and widget ids. The REST v1 / widget / bot issues build on these."""

import hashlib
import secrets

from django.contrib.auth.models import User
from django.db import transaction
from django.utils import timezone

from openguru.core.errors import DomainError, ErrorCode
from openguru.gurus.models import Guru
from openguru.integrations.models import MAX_USER_API_KEYS, APIKey, WidgetId

KEY_PREFIX = "og_"
VISIBLE_PREFIX_CHARS = 10


def _digest(raw_key: str) -> str:
    # Keys are 32 random bytes, so a fast hash is enough: there is nothing to brute-force.
    return hashlib.sha256(raw_key.encode()).hexdigest()


def api_key_create(*, user: User, name: str, integration: bool = False) -> tuple[APIKey, str]:
    """Create a key; the raw key is returned once and never stored."""
    with transaction.atomic():
        own = APIKey.objects.select_for_update().filter(user=user, integration=False)
        if not integration and own.count() >= MAX_USER_API_KEYS:
            raise DomainError(
                ErrorCode.API_KEY_LIMIT, f"You can have at most {MAX_USER_API_KEYS} API keys."
            )
        raw = KEY_PREFIX + secrets.token_urlsafe(32)
        key = APIKey.objects.create(
            user=user,
            name=name,
            prefix=raw[:VISIBLE_PREFIX_CHARS],
            hashed_key=_digest(raw),
            integration=integration,
        )
    return key, raw


def api_key_authenticate(*, raw_key: str) -> APIKey | None:
    key = APIKey.objects.select_related("user").filter(hashed_key=_digest(raw_key)).first()
    if key is None or not key.user.is_active:
        return None
    APIKey.objects.filter(pk=key.pk).update(last_used_at=timezone.now())
    return key


def widget_id_create(*, guru: Guru, domain_pattern: str = "") -> WidgetId:
    return WidgetId.objects.create(
        guru=guru, key=secrets.token_urlsafe(24), domain_pattern=domain_pattern.strip()
    )

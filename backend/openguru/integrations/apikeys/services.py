"""API keys (stored hashed)."""

import hashlib
import hmac
import secrets
from datetime import timedelta

from django.contrib.auth import get_user_model
from django.contrib.auth.models import User
from django.db import transaction
from django.utils import timezone

from openguru.accounts.access import Action, KeyScope, gurus_visible_to
from openguru.core.audit.services import audit_fields, audit_record
from openguru.core.errors import DomainError, ErrorCode
from openguru.gurus.models import Guru
from openguru.integrations.apikeys.selectors import api_key_candidates
from openguru.integrations.models import MAX_USER_API_KEYS, APIKey

KEY_PREFIX = "og_"
VISIBLE_PREFIX_CHARS = 10


def _digest(raw_key: str) -> str:
    # Keys are 32 random bytes, so a fast hash is enough: there is nothing to brute-force.
    return hashlib.sha256(raw_key.encode()).hexdigest()


_SCOPE_ACTIONS = {
    APIKey.Scope.ALL: frozenset({Action.READ, Action.MANAGE}),
    APIKey.Scope.ASK: frozenset({Action.READ}),
    APIKey.Scope.MANAGE: frozenset({Action.READ, Action.MANAGE}),
}


def api_key_create(
    *,
    user: User,
    name: str,
    integration: bool = False,
    scope: str = APIKey.Scope.ALL,
    guru_slugs: list[str] | None = None,
) -> tuple[APIKey, str]:
    """Create a key; the raw key is returned once and never stored. `scope` and `guru_slugs`
    narrow it (never widen it: it acts as `user` at most); a guru `user` may not see is refused
    as if it did not exist."""
    gurus = _key_gurus(user=user, slugs=guru_slugs or [])
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
            scope=scope,
            gurus_only=bool(gurus),
        )
        key.gurus.set(gurus)
        after = {
            **audit_fields(key, ["name", "prefix", "integration", "scope"]),
            "gurus": sorted(guru.slug for guru in gurus),
        }
        audit_record(action="api_key.create", target=key, target_label=_label(key), after=after)
    return key, raw


def _key_gurus(*, user: User, slugs: list[str]) -> list[Guru]:
    visible = {guru.slug: guru for guru in gurus_visible_to(user).filter(slug__in=slugs)}
    missing = sorted(set(slugs) - visible.keys())
    if missing:
        raise DomainError(ErrorCode.GURU_NOT_FOUND, f"No guru named '{missing[0]}'.")
    return [visible[slug] for slug in dict.fromkeys(slugs)]


def api_key_scope(*, key: APIKey) -> KeyScope | None:
    """What a scoped key narrows its owner's rights to; None for a key with all of them."""
    if key.scope == APIKey.Scope.ALL and not key.gurus_only:
        return None
    guru_ids = frozenset(key.gurus.values_list("pk", flat=True)) if key.gurus_only else None
    return KeyScope(actions=_SCOPE_ACTIONS[APIKey.Scope(key.scope)], guru_ids=guru_ids)


def _label(key: APIKey) -> str:
    return f"{key.prefix}… ({key.name}) of {key.user.get_username()}"


# "Last used" is a hint for people deciding which key to revoke: a write on every request
# would cost more than the rest of key checking, so it is refreshed at most this often.
LAST_USED_RESOLUTION = timedelta(minutes=1)


def api_key_authenticate(*, raw_key: str) -> APIKey | None:
    """The active key `raw_key` names, or None. Looked up by its visible prefix (indexed), then
    compared in constant time: no slow password hasher on every request, and no timing signal."""
    if not raw_key.startswith(KEY_PREFIX) or len(raw_key) > 200:
        return None
    digest = _digest(raw_key)
    candidates = api_key_candidates(prefix=raw_key[:VISIBLE_PREFIX_CHARS])
    key = next((k for k in candidates if hmac.compare_digest(k.hashed_key, digest)), None)
    if key is None or not key.user.is_active:
        return None
    api_key_touch(key=key)
    # The key's user is who acts: the access rule reads the key's limits off it.
    key.user.key_scope = api_key_scope(key=key)  # type: ignore[attr-defined]
    return key


def api_key_touch(*, key: APIKey) -> None:
    """Note that `key` was just used (at most once per `LAST_USED_RESOLUTION`)."""
    now = timezone.now()
    if key.last_used_at is None or now - key.last_used_at > LAST_USED_RESOLUTION:
        APIKey.objects.filter(pk=key.pk).update(last_used_at=now)
        key.last_used_at = now


def api_key_delete(*, user: User, key_id: int) -> None:
    """Revoke one of the user's personal keys: the next request with it is refused."""
    key = APIKey.objects.filter(user=user, pk=key_id, integration=False).first()
    if key is None:
        raise DomainError(ErrorCode.NOT_FOUND, f"You have no API key {key_id}.")
    before = audit_fields(key, ["name", "prefix"])
    audit_record(action="api_key.delete", target=key, target_label=_label(key), before=before)
    key.delete()


def admin_token_owner() -> User:
    """The user behind the admin token, for what must belong to someone (API keys, sessions):
    the first superuser, created without a password on an install that has none."""
    users = get_user_model().objects
    owner = users.filter(is_superuser=True, is_active=True).order_by("pk").first()
    if owner is None:
        owner = users.create_superuser("admin", "admin@localhost", None)
    return owner

"""The one way a change gets into the audit log: services call `audit_record` after they
change something; sign-ins arrive through Django's signals (`signals.py`)."""

import json
from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from datetime import datetime, timedelta
from typing import Any

from django.conf import settings
from django.core.serializers.json import DjangoJSONEncoder
from django.db import models
from django.http import HttpRequest
from django.utils import timezone

from openguru.core.audit.context import current_request
from openguru.core.audit.models import AuditEvent
from openguru.core.auth import AdminTokenUser
from openguru.core.client_address import client_ip

# A field whose name holds one of these is a credential: the log says whether it is set, never
# what it is.
SECRET_WORDS = ("secret", "token", "password", "key", "hash")
MASK = "••••••"


@dataclass(frozen=True)
class Actor:
    user_id: int | None
    label: str
    api_key_prefix: str = ""
    client_ip: str = ""


SYSTEM = Actor(user_id=None, label="system")


def actor_from_request(request: HttpRequest | None, *, user: Any = None) -> Actor:
    """Who a request acts as: its user (a person, a key's owner, the admin token), and from
    which client address (`core/ratelimit.client_ip`, the one that limits count)."""
    if request is None:
        return SYSTEM
    address = client_ip(request)
    user = user if user is not None else getattr(request, "user", None)
    key = getattr(request, "auth", None)
    prefix = str(getattr(key, "prefix", "") or "")  # set when an API key authenticated
    if isinstance(user, AdminTokenUser):
        return Actor(user_id=None, label="admin token", client_ip=address)
    if user is not None and user.is_authenticated:
        return Actor(user.pk, user.get_username(), api_key_prefix=prefix, client_ip=address)
    return Actor(user_id=None, label="anonymous", client_ip=address)


def _is_secret(name: str) -> bool:
    return any(word in name.lower() for word in SECRET_WORDS)


def _plain(value: Any) -> Any:
    return json.loads(json.dumps(value, cls=DjangoJSONEncoder, default=str))


def masked(values: Mapping[str, Any]) -> dict[str, Any]:
    """`values` fit for the log: secrets replaced by a mask (empty stays empty: "not set")."""
    return {
        name: (MASK if value else "") if _is_secret(name) else _plain(value)
        for name, value in values.items()
    }


def audit_fields(instance: models.Model, names: Iterable[str]) -> dict[str, Any]:
    """The named fields of `instance` as they are now (before or after a change)."""
    return {name: getattr(instance, name) for name in names}


def _changes(
    before: Mapping[str, Any], after: Mapping[str, Any]
) -> tuple[dict[str, Any], dict[str, Any]]:
    """Only the fields that changed, masked; a secret replaced by another reads "(new)"."""
    old, new = {k: _plain(v) for k, v in before.items()}, {k: _plain(v) for k, v in after.items()}
    names = [name for name in {**old, **new} if old.get(name) != new.get(name)]
    old_masked = masked({name: old[name] for name in names if name in old})
    new_masked = masked({name: new[name] for name in names if name in new})
    for name in names:
        if _is_secret(name) and old.get(name) and new.get(name):
            new_masked[name] = f"{MASK} (new)"
    return old_masked, new_masked


def audit_record(
    *,
    action: str,
    target: models.Model | None = None,
    target_label: str = "",
    guru: Any = None,
    before: Mapping[str, Any] | None = None,
    after: Mapping[str, Any] | None = None,
    actor: Actor | None = None,
) -> AuditEvent:
    """Log `action` ("<entity>.<verb>") on `target` of `guru`, by `actor` (default: whoever
    the request being served acts as; the system outside a request). With both `before` and
    `after`, only the fields that changed are kept. Secrets are masked."""
    actor = actor or actor_from_request(current_request())
    if before is not None and after is not None:
        old, new = _changes(before, after)
    else:
        old, new = masked(before or {}), masked(after or {})
    return AuditEvent.objects.create(
        action=action,
        actor_id=actor.user_id,
        actor=actor.label[:200],
        api_key_prefix=actor.api_key_prefix,
        client_ip=actor.client_ip[:64],
        guru_slug=str(getattr(guru, "slug", "") or ""),
        target_type=(target._meta.model_name or "") if target is not None else "",
        target_id=str(target.pk) if target is not None and target.pk is not None else "",
        target=(target_label or (str(target) if target is not None else ""))[:300],
        before=old,
        after=new,
    )


def audit_prune(*, now: datetime | None = None) -> int:
    """Delete the events older than `AUDIT_RETENTION_DAYS` (0 keeps every event)."""
    days = settings.AUDIT_RETENTION_DAYS
    if days <= 0:
        return 0
    cutoff = (now or timezone.now()) - timedelta(days=days)
    deleted, _ = AuditEvent.objects.filter(created_at__lt=cutoff).delete()
    return deleted

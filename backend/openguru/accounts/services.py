"""People: roles, the gurus granted to them, and whether they may sign in."""

from typing import Any

from django.contrib.auth.models import User
from django.db import transaction

from openguru.accounts.access import role_of
from openguru.accounts.models import GuruGrant, Membership, Role
from openguru.core.audit.services import audit_record
from openguru.core.errors import DomainError, ErrorCode
from openguru.gurus.models import Guru


def member_state(*, user: User) -> dict[str, Any]:
    role = role_of(user) if user.is_active else None
    stored = Membership.objects.filter(user=user).values_list("role", flat=True).first()
    return {"role": str(role or stored or ""), "active": user.is_active}


def membership_set(*, user: User, role: Role) -> None:
    """Give `user` `role`: admins are staff, the others are not (no audit: callers log)."""
    Membership.objects.update_or_create(user=user, defaults={"role": role})
    user.is_staff = role == Role.ADMIN
    user.save(update_fields=["is_staff"])


@transaction.atomic
def member_update(
    *, user: User, by: Any, role: Role | None = None, active: bool | None = None
) -> User:
    """Change a person's role or deactivate them (a deactivated person can no longer sign in,
    and their sessions and API keys stop working). Nobody changes their own role or access:
    the last admin cannot lock everyone out."""
    if getattr(by, "pk", None) == user.pk:
        raise DomainError(
            ErrorCode.PERMISSION_DENIED, "You cannot change your own role or deactivate yourself."
        )
    before = member_state(user=user)
    if role is not None:
        membership_set(user=user, role=role)
    if active is not None:
        user.is_active = active
        user.save(update_fields=["is_active"])
    audit_record(
        action="member.update",
        target=user,
        before=before,
        after=member_state(user=user),
    )
    return user


def guru_grant_add(*, user: User, guru: Guru) -> GuruGrant:
    grant, created = GuruGrant.objects.get_or_create(user=user, guru=guru)
    if created:
        audit_record(action="grant.add", target=user, guru=guru, after={"guru": guru.slug})
    return grant


def guru_grant_remove(*, user: User, guru: Guru) -> None:
    deleted, _ = GuruGrant.objects.filter(user=user, guru=guru).delete()
    if not deleted:
        raise DomainError(
            ErrorCode.NOT_FOUND, f"{user.get_username()} has no grant of '{guru.slug}'."
        )
    audit_record(action="grant.remove", target=user, guru=guru, before={"guru": guru.slug})

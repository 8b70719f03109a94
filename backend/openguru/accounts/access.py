"""Who may do what to a guru: the one rule. Every door (the console's admin API, API keys,
the site, the bots) asks `guru_permission` or filters with `gurus_visible_to`, so a role
means the same thing on every channel.

- Admin (staff users, the admin token, a staff user's API key): everything.
- Maintainer: manages the gurus granted to them (settings, sources, widget ids, integrations,
  golden sets, analytics); creating and deleting gurus, platform settings, people and the
  audit log stay with admins.
- Member: reads and asks the gurus granted to them (and, like anyone, the public ones).
An API key acts with its owner's rights, never more.
"""

from enum import StrEnum
from typing import Any

from django.db.models import Q, QuerySet
from rest_framework.permissions import BasePermission
from rest_framework.request import Request

from openguru.accounts.models import GuruGrant, Membership, Role
from openguru.gurus.models import Guru


class Action(StrEnum):
    READ = "read"  # see the guru and ask it
    MANAGE = "manage"  # change it: settings, sources, widget ids, integrations, golden, analytics
    ADMIN = "admin"  # what only admins do: create or delete it


def role_of(actor: Any) -> Role | None:
    """The actor's role: None for anonymous callers, deactivated people and people without
    one."""
    if actor is None or not actor.is_authenticated:
        return None
    if actor.pk is not None and not actor.is_active:
        return None
    if actor.is_staff:
        return Role.ADMIN
    role = Membership.objects.filter(user_id=actor.pk).values_list("role", flat=True).first()
    return Role(role) if role else None


def is_admin(actor: Any) -> bool:
    return role_of(actor) == Role.ADMIN


def _granted(actor: Any, guru: Guru) -> bool:
    return GuruGrant.objects.filter(user_id=actor.pk, guru=guru).exists()


def guru_permission(*, actor: Any, guru: Guru, action: Action) -> bool:
    """Whether `actor` (a user, the admin token's user, a key's owner, or None) may do
    `action` to `guru`."""
    role = role_of(actor)
    if role == Role.ADMIN:
        return True
    if action == Action.READ and guru.active:
        return True
    if role is None or action == Action.ADMIN:
        return False
    if action == Action.MANAGE and role != Role.MAINTAINER:
        return False
    return _granted(actor, guru)


def gurus_managed_by(actor: Any) -> QuerySet[Guru]:
    role = role_of(actor)
    if role == Role.ADMIN:
        return Guru.objects.all()
    if role != Role.MAINTAINER:
        return Guru.objects.none()
    return Guru.objects.filter(grants__user_id=actor.pk)


def gurus_visible_to(actor: Any) -> QuerySet[Guru]:
    """The gurus `actor` may read: active ones, and the ones they manage."""
    if is_admin(actor):
        return Guru.objects.all()
    return Guru.objects.filter(Q(active=True) | Q(pk__in=gurus_managed_by(actor).values("pk")))


def _view_guru_slug(view: Any) -> str | None:
    kwargs = getattr(view, "kwargs", None) or {}
    return kwargs.get("slug") or kwargs.get("guru_slug")


class GuruRolePermission(BasePermission):
    """The admin API's permission (DRF's default here): an admin everywhere; on a route of one
    guru (`<slug>` or `<guru_slug>`), whoever `guru_permission` lets do the view's action.
    A view names its action per method in `guru_actions` (MANAGE unless named)."""

    def has_permission(self, request: Request, view: Any) -> bool:
        user = request.user
        if not (user and user.is_authenticated):
            return False
        if is_admin(user):
            return True
        action = getattr(view, "guru_actions", {}).get(request.method, Action.MANAGE)
        slug = _view_guru_slug(view)
        if slug is None or action == Action.ADMIN:
            return False
        guru = Guru.objects.filter(slug=slug).first()
        return guru is not None and guru_permission(actor=user, guru=guru, action=action)

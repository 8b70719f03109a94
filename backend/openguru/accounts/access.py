"""Who may do what to a guru: the one rule. Every door (the console's admin API, API keys,
the site, the bots) asks `guru_permission` or filters with `gurus_visible_to`, so a role
means the same thing on every channel.

- Admin (staff users, the admin token, a staff user's API key): everything.
- Maintainer: manages the gurus granted to them (settings, sources, widget ids, integrations,
  golden sets, analytics); creating and deleting gurus, platform settings, people and the
  audit log stay with admins.
- Member: reads and asks the gurus granted to them (and, like anyone, the public ones).
- Anyone, signed in or not: reads and asks the active public gurus. A private guru is for its
  admins and the people granted it only; to everyone else it does not exist (404, unlisted).
An API key acts with its owner's rights, never more; a scoped key (`KeyScope`) with fewer:
only its gurus, only its actions, and never what only admins do.
"""

from dataclasses import dataclass
from enum import StrEnum
from typing import Any

from django.db import connection
from django.db.models import Q, QuerySet
from rest_framework.permissions import BasePermission
from rest_framework.request import Request

from openguru.accounts.models import GuruGrant, Membership, Role
from openguru.core.errors import DomainError, ErrorCode
from openguru.gurus.models import Guru, Visibility


class Action(StrEnum):
    READ = "read"  # see the guru and ask it
    MANAGE = "manage"  # change it: settings, sources, widget ids, integrations, golden, analytics
    ADMIN = "admin"  # what only admins do: create or delete it


@dataclass(frozen=True)
class KeyScope:
    """What a scoped API key narrows its owner's rights to. The key's authentication puts it
    on the user it acts as (`actor.key_scope`), so every check below sees it."""

    actions: frozenset[Action]  # READ ("ask"), or READ and MANAGE ("manage")
    guru_ids: frozenset[int] | None  # None: any guru the owner may reach


def key_scope_of(actor: Any) -> KeyScope | None:
    return getattr(actor, "key_scope", None)


def _key_allows(actor: Any, guru: Guru, action: Action) -> bool:
    scope = key_scope_of(actor)
    if scope is None:
        return True
    if action not in scope.actions:
        return False
    return scope.guru_ids is None or guru.pk in scope.guru_ids


def _key_gurus(actor: Any, gurus: QuerySet[Guru], action: Action) -> QuerySet[Guru]:
    scope = key_scope_of(actor)
    if scope is None:
        return gurus
    if action not in scope.actions:
        return gurus.none()
    return gurus if scope.guru_ids is None else gurus.filter(pk__in=scope.guru_ids)


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
    """An admin acting with all of an admin's rights (not through a scoped key)."""
    return role_of(actor) == Role.ADMIN and key_scope_of(actor) is None


def guru_is_public(guru: Guru) -> bool:
    """Whether anyone may read it: the site lists it and search engines may index it."""
    return guru.active and guru.visibility == Visibility.PUBLIC


# `guru_is_public` as a filter.
PUBLIC = Q(active=True, visibility=Visibility.PUBLIC)


def gurus_public() -> QuerySet[Guru]:
    return Guru.objects.filter(PUBLIC)


def _granted(actor: Any, guru: Guru) -> bool:
    return GuruGrant.objects.filter(user_id=actor.pk, guru=guru).exists()


def guru_permission(*, actor: Any, guru: Guru, action: Action) -> bool:
    """Whether `actor` (a user, the admin token's user, a key's owner, or None) may do
    `action` to `guru`."""
    if not _key_allows(actor, guru, action):
        return False
    role = role_of(actor)
    if role == Role.ADMIN:
        return True
    if action == Action.READ and guru_is_public(guru):
        return True
    if role is None or action == Action.ADMIN:
        return False
    if action == Action.MANAGE and role != Role.MAINTAINER:
        return False
    return _granted(actor, guru)


def gurus_managed_by(actor: Any) -> QuerySet[Guru]:
    role = role_of(actor)
    if role == Role.ADMIN:
        gurus = Guru.objects.all()
    elif role == Role.MAINTAINER:
        gurus = Guru.objects.filter(grants__user_id=actor.pk)
    else:
        return Guru.objects.none()
    return _key_gurus(actor, gurus, Action.MANAGE)


def gurus_visible_to(actor: Any) -> QuerySet[Guru]:
    """The gurus `actor` may read: the active public ones, and those granted to them (all of
    them for admins). The same answer as `guru_permission(..., READ)`, as one query."""
    role = role_of(actor)
    if role == Role.ADMIN:
        gurus = Guru.objects.all()
    elif role is None:
        gurus = gurus_public()
    else:
        granted = GuruGrant.objects.filter(user_id=actor.pk).values("guru_id")
        gurus = Guru.objects.filter(PUBLIC | Q(pk__in=granted))
    return _key_gurus(actor, gurus, Action.READ)


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


def guru_readable_get(*, actor: Any, slug: str) -> Guru:
    """The guru named `slug` if `actor` may read it. A missing guru and one they may not read
    are the same 404, so a private guru's name is not confirmed.

    Raw SQL: it runs on every ask, and the ORM took longer to build the query than the
    database to answer it (the slug is unique)."""
    table = connection.ops.quote_name(Guru._meta.db_table)
    sql = f"SELECT * FROM {table} WHERE slug = %s"  # noqa: S608
    guru = next(iter(Guru.objects.raw(sql, [slug])), None)
    if guru is None or not guru_permission(actor=actor, guru=guru, action=Action.READ):
        raise DomainError(ErrorCode.GURU_NOT_FOUND, f"No guru named '{slug}'.")
    return guru

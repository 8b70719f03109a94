"""Admin authentication: a signed-in staff user (session) or the admin token (Bearer)."""

import hmac
from typing import Any

from django.conf import settings
from django.contrib.auth.models import AnonymousUser
from rest_framework.authentication import BaseAuthentication, get_authorization_header
from rest_framework.permissions import BasePermission
from rest_framework.request import Request

# The permission to sign in to the console (`user.has_perm(SIGN_IN)`): staff, and the people
# accounts/ gives a role.
SIGN_IN = "core.sign_in"


class AdminTokenUser(AnonymousUser):
    """The identity behind the admin token: staff, but no database row."""

    @property
    def is_authenticated(self) -> bool:  # type: ignore[override]
        return True

    @property
    def is_staff(self) -> bool:  # type: ignore[override]
        return True


class AdminTokenAuthentication(BaseAuthentication):
    def authenticate(self, request: Request) -> tuple[Any, None] | None:
        header = get_authorization_header(request).split()
        if len(header) != 2 or header[0].lower() != b"bearer" or not settings.ADMIN_TOKEN:
            return None
        if hmac.compare_digest(header[1], settings.ADMIN_TOKEN.encode()):
            return AdminTokenUser(), None
        return None

    def authenticate_header(self, request: Request) -> str:
        return "Bearer"


class IsAdmin(BasePermission):
    """Staff, with all of staff's rights: a scoped API key (`key_scope`, set by the key's
    authentication) is held to the gurus and actions it names, so never passes here."""

    def has_permission(self, request: Request, view: Any) -> bool:
        user = request.user
        scoped = getattr(user, "key_scope", None) is not None
        return bool(user and user.is_authenticated and user.is_staff and not scoped)

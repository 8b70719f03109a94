"""Single sign-on: an OpenID Connect provider vouches for a person, and the claim named by
OIDC_ROLE_CLAIM decides their role and gurus (OIDC_ROLE_MAP, OIDC_GURU_MAP), anew at each
sign-in. mozilla-django-oidc runs the code flow (state, nonce, PKCE, the ID token's signature);
this says who the person is here."""

from typing import Any

from django.conf import settings
from django.contrib.auth.models import User
from django.core.exceptions import SuspiciousOperation
from django.db import transaction
from django.http import HttpRequest
from mozilla_django_oidc.auth import OIDCAuthenticationBackend

from openguru.accounts.models import GuruGrant, Role
from openguru.accounts.services import membership_set
from openguru.gurus.models import Guru

# The strongest role wins when a person's claim maps to several.
ROLE_RANK = [Role.MEMBER, Role.MAINTAINER, Role.ADMIN]
# Why the last SSO sign-in on a request was refused, for the audit log (sso_views.py).
REFUSAL_ATTRIBUTE = "sso_refusal"


def claim_values(claims: dict[str, Any]) -> list[str]:
    value = claims.get(settings.OIDC_ROLE_CLAIM)
    if isinstance(value, str):
        return [value]
    if isinstance(value, list):
        return [str(item) for item in value]
    return []


def sso_role(*, claims: dict[str, Any]) -> Role | None:
    """The highest role the claim's values map to; None when none does."""
    mapped = {settings.OIDC_ROLE_MAP.get(value) for value in claim_values(claims)}
    roles = [role for role in ROLE_RANK if role.value in mapped]
    return roles[-1] if roles else None


def sso_guru_slugs(*, claims: dict[str, Any]) -> set[str]:
    return {
        slug for value in claim_values(claims) for slug in settings.OIDC_GURU_MAP.get(value, [])
    }


def refuse(request: HttpRequest | None, reason: str) -> SuspiciousOperation:
    """Notes `reason` on the request (the callback logs it) and returns the error that makes
    mozilla-django-oidc refuse the sign-in."""
    if request is not None:
        setattr(request, REFUSAL_ATTRIBUTE, reason)
    return SuspiciousOperation(reason)


@transaction.atomic
def sso_member_sync(*, user: User, claims: dict[str, Any]) -> User:
    """Gives `user` the role and gurus the claims map to now (grants of gurus that do not
    exist are skipped; grants the claims no longer give are removed)."""
    role = sso_role(claims=claims)
    if role is None:
        raise SuspiciousOperation("no role is mapped to the claim")
    membership_set(user=user, role=role)
    gurus = Guru.objects.filter(slug__in=sso_guru_slugs(claims=claims))
    GuruGrant.objects.filter(user=user).exclude(guru__in=gurus).delete()
    for guru in gurus:
        GuruGrant.objects.get_or_create(user=user, guru=guru)
    return user


class SsoBackend(OIDCAuthenticationBackend):
    """Finds or creates the person by the e-mail the provider verified (a username here is an
    e-mail, as invitations make them), then applies the claim mapping."""

    request: HttpRequest | None

    def authenticate(self, request: HttpRequest | None, **kwargs: Any) -> Any:
        if not settings.SSO_ENABLED or "nonce" not in kwargs:
            return None  # a password sign-in, or SSO not configured: not this backend's
        return super().authenticate(request, **kwargs)

    def get_token(self, payload: dict[str, Any]) -> Any:
        # The token request must name the redirect URI the provider sent the browser to.
        return super().get_token({**payload, "redirect_uri": settings.OIDC_REDIRECT_URI})

    def verify_claims(self, claims: dict[str, Any]) -> bool:
        if not claims.get("email"):
            raise refuse(self.request, "the provider sent no e-mail address")
        if claims.get("email_verified") is False:
            raise refuse(self.request, "the provider has not verified the e-mail address")
        if sso_role(claims=claims) is None:
            raise refuse(self.request, f"no role is mapped to {settings.OIDC_ROLE_CLAIM}")
        return True

    def filter_users_by_claims(self, claims: dict[str, Any]) -> Any:
        email = str(claims.get("email") or "").strip().lower()
        return self.UserModel.objects.filter(username__iexact=email)

    def create_user(self, claims: dict[str, Any]) -> Any:
        email = str(claims["email"]).strip().lower()
        user = self.UserModel.objects.create_user(email, email=email)  # no usable password
        return sso_member_sync(user=user, claims=claims)

    def update_user(self, user: Any, claims: dict[str, Any]) -> Any:
        if not user.is_active:
            raise refuse(self.request, f"{user.get_username()} is deactivated")
        return sso_member_sync(user=user, claims=claims)

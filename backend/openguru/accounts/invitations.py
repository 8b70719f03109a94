"""Invitations: a one-time link, valid for INVITATION_EXPIRY_HOURS, that lets a person choose
a password and join with the role and gurus the admin picked. Only the token's hash is kept."""

import hashlib
import secrets
from dataclasses import dataclass
from datetime import timedelta
from typing import Any
from urllib.parse import urlencode

from django.conf import settings
from django.contrib.auth import get_user_model
from django.contrib.auth.models import User
from django.db import transaction
from django.utils import timezone

from openguru.accounts.mail import mail_send
from openguru.accounts.models import GuruGrant, Invitation, Role
from openguru.accounts.passwords import password_validate
from openguru.accounts.services import membership_set
from openguru.core.audit.context import current_request
from openguru.core.audit.services import Actor, actor_from_request, audit_record
from openguru.core.errors import DomainError, ErrorCode
from openguru.gurus.models import Guru

LINK_INVALID = "This invitation link is invalid, used or expired: ask for a new one."


@dataclass(frozen=True)
class SentInvitation:
    invitation: Invitation
    url: str
    email_sent: bool


def _digest(token: str) -> str:
    return hashlib.sha256(token.encode()).hexdigest()


def _state(invitation: Invitation) -> dict[str, Any]:
    return {
        "email": invitation.email,
        "role": invitation.role,
        "gurus": sorted(invitation.gurus.values_list("slug", flat=True)),
    }


@transaction.atomic
def invitation_create(
    *, email: str, role: Role, gurus: list[Guru], invited_by: Any
) -> SentInvitation:
    email = get_user_model().objects.normalize_email(email).lower()
    if get_user_model().objects.filter(username__iexact=email).exists():
        raise DomainError(ErrorCode.CONFLICT, f"{email} is a member already.")
    token = secrets.token_urlsafe(32)
    invitation = Invitation.objects.create(
        email=email,
        role=role,
        token_hash=_digest(token),
        invited_by=invited_by if getattr(invited_by, "pk", None) else None,
        expires_at=timezone.now() + timedelta(hours=settings.INVITATION_EXPIRY_HOURS),
    )
    invitation.gurus.set(gurus)
    url = f"{settings.SITE_URL}/console/accept-invitation?{urlencode({'token': token})}"
    audit_record(action="invitation.create", target=invitation, after=_state(invitation))
    sent = mail_send(
        to=email,
        template="invitation",
        context={
            "url": url,
            "email": email,
            "role": Role(role).label,
            "expires_at": invitation.expires_at,
            "invited_by": getattr(invited_by, "username", "") or "An administrator",
        },
    )
    return SentInvitation(invitation=invitation, url=url, email_sent=sent)


def invitation_get(*, token: str, lock: bool = False) -> Invitation:
    """The open invitation `token` names; a used, revoked, expired or unknown one is an error."""
    found = Invitation.objects.select_for_update() if lock else Invitation.objects.all()
    invitation = found.filter(
        token_hash=_digest(token),
        accepted_at=None,
        revoked_at=None,
        expires_at__gt=timezone.now(),
    ).first()
    if invitation is None:
        raise DomainError(ErrorCode.LINK_INVALID, LINK_INVALID)
    return invitation


@transaction.atomic
def invitation_accept(*, token: str, password: str) -> User:
    """Create the invited person with `password` (Django's validators decide) and their role
    and gurus; the link then stops working."""
    invitation = invitation_get(token=token, lock=True)
    users = get_user_model().objects
    if users.filter(username__iexact=invitation.email).exists():
        raise DomainError(ErrorCode.CONFLICT, f"{invitation.email} is a member already.")
    password_validate(
        password=password, user=users.model(username=invitation.email, email=invitation.email)
    )
    user = users.create_user(invitation.email, invitation.email, password)
    membership_set(user=user, role=Role(invitation.role))
    GuruGrant.objects.bulk_create(
        GuruGrant(user=user, guru=guru) for guru in invitation.gurus.all()
    )
    invitation.accepted_at = timezone.now()
    invitation.user = user
    invitation.save(update_fields=["accepted_at", "user"])
    where = actor_from_request(current_request()).client_ip
    audit_record(
        action="invitation.accept",
        target=invitation,
        actor=Actor(user_id=user.pk, label=user.get_username(), client_ip=where),
        after=_state(invitation),
    )
    return user


def invitation_revoke(*, invitation_id: int) -> None:
    invitation = Invitation.objects.filter(
        pk=invitation_id, accepted_at=None, revoked_at=None
    ).first()
    if invitation is None:
        raise DomainError(ErrorCode.NOT_FOUND, f"No open invitation {invitation_id}.")
    invitation.revoked_at = timezone.now()
    invitation.save(update_fields=["revoked_at"])
    audit_record(action="invitation.revoke", target=invitation, before=_state(invitation))

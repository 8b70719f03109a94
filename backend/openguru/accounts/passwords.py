"""Passwords: Django's validators (AUTH_PASSWORD_VALIDATORS), change when signed in, and reset
by an e-mailed link (Django's token generator: one use, PASSWORD_RESET_TIMEOUT)."""

from typing import Any

from django.conf import settings
from django.contrib.auth import get_user_model, password_validation
from django.contrib.auth.forms import PasswordResetForm
from django.contrib.auth.models import User
from django.contrib.auth.tokens import default_token_generator
from django.core.exceptions import ValidationError
from django.utils.encoding import force_bytes, force_str
from django.utils.http import urlsafe_base64_decode, urlsafe_base64_encode

from openguru.accounts.mail import mail_send
from openguru.core.audit.context import current_request
from openguru.core.audit.services import Actor, actor_from_request, audit_record
from openguru.core.errors import DomainError, ErrorCode

RESET_LINK_INVALID = "This password-reset link is invalid, used or expired: ask for a new one."


def password_validate(*, password: str, user: Any) -> None:
    try:
        password_validation.validate_password(password, user=user)
    except ValidationError as exc:
        raise DomainError(ErrorCode.INVALID_INPUT, " ".join(exc.messages)) from exc


def _as(user: User) -> Actor:
    where = actor_from_request(current_request()).client_ip
    return Actor(user_id=user.pk, label=user.get_username(), client_ip=where)


def password_change(*, user: User, old_password: str, new_password: str) -> None:
    if not user.check_password(old_password):
        raise DomainError(ErrorCode.INVALID_CREDENTIALS, "Your current password is not right.")
    password_validate(password=new_password, user=user)
    user.set_password(new_password)
    user.save(update_fields=["password"])
    audit_record(action="password.change", target=user, actor=_as(user))


def password_reset_request(*, email: str) -> int:
    """Mail a reset link to each active person with this address (none: nothing happens, and
    the caller says the same either way, so addresses cannot be probed). Returns how many."""
    form = PasswordResetForm(data={"email": email})
    if not form.is_valid():
        return 0
    sent = 0
    for user in form.get_users(form.cleaned_data["email"]):
        context = {
            "user": user,
            "uid": urlsafe_base64_encode(force_bytes(user.pk)),
            "token": default_token_generator.make_token(user),
            "site_url": settings.SITE_URL,
            "minutes": settings.PASSWORD_RESET_TIMEOUT // 60,
        }
        mail_send(to=user.email, template="password_reset", context=context)
        audit_record(action="password.reset_request", target=user)
        sent += 1
    return sent


def password_reset_confirm(*, uid: str, token: str, new_password: str) -> User:
    try:
        pk = int(force_str(urlsafe_base64_decode(uid)))
    except (TypeError, ValueError, OverflowError):
        pk = None
    user = get_user_model().objects.filter(pk=pk, is_active=True).first() if pk else None
    if user is None or not default_token_generator.check_token(user, token):
        raise DomainError(ErrorCode.LINK_INVALID, RESET_LINK_INVALID)
    password_validate(password=new_password, user=user)
    user.set_password(new_password)
    user.save(update_fields=["password"])
    audit_record(action="password.reset", target=user, actor=_as(user))
    return user

"""Sign-ins in the audit log, from Django's own signals: the console's sign-in, Django's admin
site and any later sign-in path send them."""

from typing import Any

from django.contrib.auth.signals import user_logged_in, user_logged_out, user_login_failed
from django.dispatch import receiver
from django.http import HttpRequest

from openguru.core.audit.services import Actor, actor_from_request, audit_record


@receiver(user_logged_in)
def _signed_in(sender: Any, request: HttpRequest | None, user: Any, **kwargs: Any) -> None:
    audit_record(action="auth.login", actor=actor_from_request(request, user=user), target=user)


@receiver(user_logged_out)
def _signed_out(sender: Any, request: HttpRequest | None, user: Any, **kwargs: Any) -> None:
    if user is not None:
        audit_record(
            action="auth.logout", actor=actor_from_request(request, user=user), target=user
        )


@receiver(user_login_failed)
def _sign_in_failed(
    sender: Any, credentials: dict[str, Any], request: HttpRequest | None = None, **kwargs: Any
) -> None:
    if "username" not in credentials:
        return  # a single sign-on: its callback logs the refusal with the reason (accounts/)
    # Who tried is the name they typed (Django has already masked the password).
    tried = str(credentials.get("username", ""))[:150]
    where = actor_from_request(request).client_ip
    audit_record(
        action="auth.login_failed",
        actor=Actor(user_id=None, label=tried, client_ip=where),
        target_label=tried,
    )

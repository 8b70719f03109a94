"""Django's /admin/ sign-in form, throttled like the console's (`openguru/core/sign_in.py`)."""

from typing import Any

from django.conf import settings
from django.contrib.admin.forms import AdminAuthenticationForm
from django.core.exceptions import ValidationError

from openguru.core.errors import DomainError
from openguru.core.sign_in import sign_in_throttle_check

PASSWORDS_OFF = "Password sign-in is turned off here: sign in with single sign-on."


class ThrottledAdminAuthenticationForm(AdminAuthenticationForm):
    def clean(self) -> dict[str, Any]:
        if not settings.PASSWORD_SIGN_IN:  # SSO only: /admin/ takes no password either
            raise ValidationError(PASSWORDS_OFF, code="password_sign_in_off")
        if self.request is not None:
            try:
                sign_in_throttle_check(
                    request=self.request, username=str(self.cleaned_data.get("username") or "")
                )
            except DomainError as exc:
                raise ValidationError(exc.msg, code="rate_limited") from exc
        return super().clean()

"""Django's /admin/ sign-in form, throttled like the console's (`openguru/core/sign_in.py`)."""

from typing import Any

from django.contrib.admin.forms import AdminAuthenticationForm
from django.core.exceptions import ValidationError

from openguru.core.errors import DomainError
from openguru.core.sign_in import sign_in_throttle_check


class ThrottledAdminAuthenticationForm(AdminAuthenticationForm):
    def clean(self) -> dict[str, Any]:
        if self.request is not None:
            try:
                sign_in_throttle_check(
                    request=self.request, username=str(self.cleaned_data.get("username") or "")
                )
            except DomainError as exc:
                raise ValidationError(exc.msg, code="rate_limited") from exc
        return super().clean()

"""The two ends of the SSO sign-in: the redirect to the provider, and the provider's redirect
back. Both answer with redirects to the console (SITE_URL); every refusal is in the audit log
with its reason, as every sign-in is (an accepted one through Django's `user_logged_in`)."""

import logging
from typing import Any
from urllib.parse import urlencode

import requests
from django.conf import settings
from django.core.exceptions import SuspiciousOperation
from django.http import HttpRequest, HttpResponse, HttpResponseRedirect
from mozilla_django_oidc.views import (
    OIDCAuthenticationCallbackView,
    OIDCAuthenticationRequestView,
)

from openguru.accounts.sso import REFUSAL_ATTRIBUTE
from openguru.core.audit.services import Actor, actor_from_request, audit_record
from openguru.core.errors import DomainError, ErrorCode
from openguru.core.exception_handler import json_error
from openguru.core.sign_in_form import console_path

logger = logging.getLogger(__name__)

NEXT_KEY = "sso_next"  # where the console goes after the provider sends the browser back
SSO_FAILED = "sso_failed"  # the sign-in page's ?error= for any refusal (details: audit log)


def _not_configured() -> HttpResponse | None:
    if settings.SSO_ENABLED:
        return None
    return json_error(DomainError(ErrorCode.NOT_FOUND, "Single sign-on is not configured."))


class SsoStartView(OIDCAuthenticationRequestView):
    def get(self, request: HttpRequest) -> HttpResponse:
        if refused := _not_configured():
            return refused
        request.session[NEXT_KEY] = console_path(request.GET.get("next"))
        return super().get(request)

    def get_extra_params(self, request: HttpRequest) -> dict[str, Any]:
        return {"redirect_uri": settings.OIDC_REDIRECT_URI}


class SsoCallbackView(OIDCAuthenticationCallbackView):
    def get(self, request: HttpRequest) -> HttpResponse:
        if refused := _not_configured():
            return refused
        try:
            return super().get(request)
        except (SuspiciousOperation, requests.RequestException) as exc:
            # A state this browser never asked for, or a provider that failed the token call.
            logger.warning("SSO sign-in failed: %s", exc)
            setattr(request, REFUSAL_ATTRIBUTE, str(exc)[:200])
            return self.login_failure()

    @property
    def success_url(self) -> str:
        return f"{settings.SITE_URL}{console_path(self.request.session.get(NEXT_KEY))}"

    def login_failure(self) -> HttpResponse:
        request = self.request
        reason = getattr(request, REFUSAL_ATTRIBUTE, "") or _why(request)
        audit_record(
            action="auth.login_failed",
            actor=Actor(user_id=None, label="sso", client_ip=actor_from_request(request).client_ip),
            target_label="sso",
            after={"method": "oidc", "reason": reason},
        )
        query = urlencode({"error": SSO_FAILED})
        return HttpResponseRedirect(f"{settings.SITE_URL}/console/sign-in?{query}")


def _why(request: HttpRequest) -> str:
    if request.GET.get("error"):
        return f"the provider answered {str(request.GET['error'])[:100]}"
    user = getattr(request, "user", None)
    if user is not None and user.is_authenticated is False:
        return "the provider's answer was not accepted, or the account is deactivated"
    return "the sign-in was not accepted"

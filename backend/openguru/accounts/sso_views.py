"""The two ends of the SSO sign-in: the redirect to the provider, and the provider's redirect
back. Both answer with redirects to the console (SITE_URL); every refusal is in the audit log
with its reason, as every sign-in is (an accepted one through Django's `user_logged_in`)."""

import logging
from typing import Any
from urllib.parse import urlencode

import requests
from django.conf import settings
from django.contrib.auth.models import AnonymousUser
from django.core.exceptions import SuspiciousOperation
from django.http import HttpRequest, HttpResponse, HttpResponseRedirect
from drf_spectacular.utils import OpenApiParameter, OpenApiResponse, extend_schema
from mozilla_django_oidc.views import (
    OIDCAuthenticationCallbackView,
    OIDCAuthenticationRequestView,
)
from rest_framework.authentication import SessionAuthentication
from rest_framework.permissions import AllowAny
from rest_framework.request import Request
from rest_framework.views import APIView

from openguru.accounts.sso import REFUSAL_ATTRIBUTE
from openguru.core.audit.services import Actor, actor_from_request, audit_record
from openguru.core.errors import DomainError, ErrorCode
from openguru.core.openapi import errors
from openguru.core.sign_in_form import console_path

logger = logging.getLogger(__name__)

NEXT_KEY = "sso_next"  # where the console goes after the provider sends the browser back
SSO_FAILED = "sso_failed"  # the sign-in page's ?error= for any refusal (details: audit log)


def _sso_required() -> None:
    if not settings.SSO_ENABLED:
        raise DomainError(ErrorCode.NOT_FOUND, "Single sign-on is not configured.")


class _SsoStart(OIDCAuthenticationRequestView):
    def get(self, request: HttpRequest) -> HttpResponse:
        request.session[NEXT_KEY] = console_path(request.GET.get("next"))
        return super().get(request)

    def get_extra_params(self, request: HttpRequest) -> dict[str, Any]:
        return {"redirect_uri": settings.OIDC_REDIRECT_URI}


class _SsoCallback(OIDCAuthenticationCallbackView):
    def get(self, request: HttpRequest) -> HttpResponse:
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


_REDIRECT = {302: OpenApiResponse(description="A redirect (Location): the browser follows it.")}


class _Redirects(APIView):
    # The browser's own navigation, answered with redirects. The session says who the browser
    # is now (mozilla-django-oidc keeps a signed-in person, or signs them out on an error).
    authentication_classes = [SessionAuthentication]
    permission_classes = [AllowAny]


def _browser(request: Request) -> HttpRequest:
    """Django's request for mozilla-django-oidc, with a user object even when signed out (DRF
    leaves None there: UNAUTHENTICATED_USER)."""
    raw = request._request
    raw.user = request.user or AnonymousUser()
    return raw


class SsoStartApi(_Redirects):
    @extend_schema(
        operation_id="auth_sso_start",
        tags=["auth"],
        summary="Sign in with single sign-on: redirects to the OpenID Connect provider",
        parameters=[OpenApiParameter("next", str, description="A console path to return to.")],
        responses={**_REDIRECT, **errors(404)},
    )
    def get(self, request: Request) -> HttpResponse:
        _sso_required()
        return _SsoStart.as_view()(_browser(request))


class SsoCallbackApi(_Redirects):
    @extend_schema(
        operation_id="auth_sso_callback",
        tags=["auth"],
        summary="Where the provider sends the browser back: signs in, redirects to the console",
        description="Register <SITE_URL>/api/auth/oidc/callback/ as the client's redirect URI.",
        responses={**_REDIRECT, **errors(404)},
    )
    def get(self, request: Request) -> HttpResponse:
        _sso_required()
        return _SsoCallback.as_view()(_browser(request))

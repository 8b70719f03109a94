"""Signing in to the admin console: Django's session cookie, with CSRF checked on every change.

DRF checks CSRF only for requests its SessionAuthentication has authenticated, and a sign-in
is not authenticated yet, so these views check it themselves (a forged sign-in would put the
victim's browser in the attacker's account). Failures are JSON like every other error.
"""

from typing import Any

from django.conf import settings
from django.contrib.auth import authenticate, login, logout
from django.http import HttpRequest
from django.http.response import HttpResponseBase
from django.middleware.csrf import get_token
from drf_spectacular.utils import OpenApiExample, extend_schema
from rest_framework import serializers, status
from rest_framework.authentication import CSRFCheck, SessionAuthentication
from rest_framework.permissions import AllowAny
from rest_framework.request import Request
from rest_framework.response import Response
from rest_framework.views import APIView

from openguru.core.audit.services import Actor, actor_from_request, audit_record
from openguru.core.auth import SIGN_IN
from openguru.core.errors import DomainError, ErrorCode
from openguru.core.openapi import errors
from openguru.core.sign_in import sign_in_throttle_check
from openguru.core.sign_in_form import is_form_post, sign_in_form_post


class UserOutput(serializers.Serializer):
    username = serializers.CharField()
    is_staff = serializers.BooleanField(help_text="An admin.")
    console = serializers.BooleanField(
        help_text="May use the console: an admin, or a maintainer or member (GET /api/auth/me/)."
    )


class AuthSessionOutput(serializers.Serializer):
    authenticated = serializers.BooleanField()
    user = UserOutput(allow_null=True)


def _session(user: Any) -> dict[str, Any]:
    if user is None or not user.is_authenticated:
        return {"authenticated": False, "user": None}
    return {
        "authenticated": True,
        "user": {
            "username": user.get_username(),
            "is_staff": bool(user.is_staff),
            "console": bool(user.has_perm(SIGN_IN)),
        },
    }


def csrf_check(request: HttpRequest) -> None:
    """Django's CSRF check (cookie and `X-CSRFToken` header, Origin/Referer on HTTPS), as its
    middleware would run it on a view that is not exempt."""
    check = CSRFCheck(lambda _request: None)  # type: ignore[arg-type]
    check.process_request(request)
    reason = check.process_view(request, None, (), {})  # type: ignore[arg-type]
    if reason:
        raise DomainError(
            ErrorCode.PERMISSION_DENIED,
            "CSRF check failed: send the csrftoken cookie's value in the X-CSRFToken header.",
        )


PASSWORDS_OFF = "Password sign-in is turned off here: sign in with single sign-on."

_SIGNED_IN = {
    "authenticated": True,
    "user": {"username": "admin", "is_staff": True, "console": True},
}


class SessionApi(APIView):
    """Who the browser's session belongs to; also hands out the CSRF cookie."""

    authentication_classes = [SessionAuthentication]
    permission_classes = [AllowAny]

    @extend_schema(
        operation_id="auth_session",
        tags=["auth"],
        summary="The signed-in user, if any (sets the csrftoken cookie)",
        responses={200: AuthSessionOutput},
        examples=[
            OpenApiExample("signed in", value=_SIGNED_IN, response_only=True),
            OpenApiExample(
                "anonymous", value={"authenticated": False, "user": None}, response_only=True
            ),
        ],
    )
    def get(self, request: Request) -> Response:
        get_token(request._request)  # the cookie the console echoes in X-CSRFToken
        return Response(_session(request.user))


class LoginApi(APIView):
    authentication_classes: list[Any] = []
    permission_classes = [AllowAny]

    class InputSerializer(serializers.Serializer):
        username = serializers.CharField(max_length=150)
        password = serializers.CharField(max_length=1024, trim_whitespace=False)

    @extend_schema(
        operation_id="auth_login",
        tags=["auth"],
        summary="Sign in a staff user (session cookie; CSRF checked)",
        request=InputSerializer,
        responses={
            200: AuthSessionOutput,
            **errors(
                400,
                403,
                429,
                more={
                    400: [(ErrorCode.INVALID_CREDENTIALS, "Wrong username or password.")],
                    403: [
                        (
                            ErrorCode.NOT_STAFF,
                            "This account has no role here; an administrator can invite you.",
                        ),
                        (ErrorCode.PASSWORD_SIGN_IN_OFF, PASSWORDS_OFF),
                    ],
                },
            ),
        },
        examples=[
            OpenApiExample(
                "sign in", value={"username": "admin", "password": "…"}, request_only=True
            ),
            OpenApiExample("signed in", value=_SIGNED_IN, response_only=True),
        ],
    )
    def post(self, request: Request) -> HttpResponseBase:
        if is_form_post(request._request):  # the sign-in page before (or without) JavaScript
            return sign_in_form_post(request._request, sign_in=staff_sign_in)
        csrf_check(request._request)
        data = self.InputSerializer(data=request.data)
        data.is_valid(raise_exception=True)
        user = staff_sign_in(request._request, **data.validated_data)
        return Response(_session(user))


def staff_sign_in(request: HttpRequest, *, username: str, password: str) -> Any:
    """Signs a staff user in (a new session id and CSRF token); a DomainError says why not.
    A failed password is counted by `openguru.core.sign_in`; every refusal is in the audit log
    (a wrong password through Django's `user_login_failed`)."""
    if not settings.PASSWORD_SIGN_IN:
        _refusal_record(request, username, "passwords are turned off")
        raise DomainError(ErrorCode.PASSWORD_SIGN_IN_OFF, PASSWORDS_OFF)
    try:
        sign_in_throttle_check(request=request, username=username)
    except DomainError:
        _refusal_record(request, username, "too many failed sign-ins")
        raise
    user = authenticate(request, username=username, password=password)
    if user is None:
        raise DomainError(ErrorCode.INVALID_CREDENTIALS, "Wrong username or password.")
    if not user.has_perm(SIGN_IN):  # admins, maintainers and members; nobody else
        _refusal_record(request, username, "no role")
        raise DomainError(
            ErrorCode.NOT_STAFF, "This account has no role here; an administrator can invite you."
        )
    login(request, user)
    return user


def _refusal_record(request: HttpRequest, username: str, reason: str) -> None:
    where = actor_from_request(request).client_ip
    audit_record(
        action="auth.login_failed",
        actor=Actor(user_id=None, label=username[:150], client_ip=where),
        target_label=username[:150],
        after={"method": "password", "reason": reason},
    )


class LogoutApi(APIView):
    authentication_classes: list[Any] = []
    permission_classes = [AllowAny]

    @extend_schema(
        operation_id="auth_logout",
        tags=["auth"],
        summary="Sign out (ends the session; CSRF checked)",
        request=None,
        responses={204: None, **errors(403)},
    )
    def post(self, request: Request) -> Response:
        csrf_check(request._request)
        logout(request._request)
        return Response(status=status.HTTP_204_NO_CONTENT)

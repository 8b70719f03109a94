"""What a person does for themselves: accept an invitation, change or reset their password.
The public ones check CSRF themselves like the sign-in (`core/session_apis.py` says why)."""

from typing import Any

from django.conf import settings
from django.contrib.auth import update_session_auth_hash
from drf_spectacular.utils import OpenApiExample, extend_schema
from rest_framework import serializers, status
from rest_framework.authentication import SessionAuthentication
from rest_framework.permissions import AllowAny, IsAuthenticated
from rest_framework.request import Request
from rest_framework.response import Response
from rest_framework.views import APIView

from openguru.accounts.access import role_of
from openguru.accounts.invitations import invitation_accept, invitation_get
from openguru.accounts.models import GuruGrant, Role
from openguru.accounts.passwords import (
    password_change,
    password_reset_confirm,
    password_reset_request,
)
from openguru.core.cache import cache_guarded, window_count
from openguru.core.client_address import client_fingerprint, client_ip
from openguru.core.errors import DomainError, ErrorCode
from openguru.core.openapi import errors
from openguru.core.session_apis import csrf_check

# Reset requests one client may make per window: each sends a message to a real inbox.
RESETS_ALLOWED = 5
RESET_WINDOW_SECONDS = 900

_LINK_INVALID = {
    400: [(ErrorCode.LINK_INVALID, "This invitation link is invalid, used or expired.")]
}


class _Public(APIView):
    authentication_classes: list[Any] = []
    permission_classes = [AllowAny]


class TokenInput(serializers.Serializer):
    token = serializers.CharField(max_length=200)


class InvitationLookupApi(_Public):
    class OutputSerializer(serializers.Serializer):
        email = serializers.EmailField(help_text="The username the person will sign in with.")
        role = serializers.ChoiceField(choices=Role.choices)
        expires_at = serializers.DateTimeField()

    @extend_schema(
        operation_id="invitation_lookup",
        tags=["auth"],
        summary="What an invitation link offers (before choosing a password)",
        request=TokenInput,
        responses={200: OutputSerializer, **errors(400, more=_LINK_INVALID)},
    )
    def post(self, request: Request) -> Response:
        data = TokenInput(data=request.data)
        data.is_valid(raise_exception=True)
        invitation = invitation_get(token=data.validated_data["token"])
        return Response(self.OutputSerializer(invitation).data)


class InvitationAcceptApi(_Public):
    class InputSerializer(TokenInput):
        password = serializers.CharField(max_length=1024, trim_whitespace=False)

    class OutputSerializer(serializers.Serializer):
        username = serializers.CharField(help_text="Sign in with it and the password chosen.")

    @extend_schema(
        operation_id="invitation_accept",
        tags=["auth"],
        summary="Accept an invitation: choose a password (CSRF checked)",
        description="The password must pass the server's password validators.",
        request=InputSerializer,
        responses={201: OutputSerializer, **errors(400, 403, 409, more=_LINK_INVALID)},
    )
    def post(self, request: Request) -> Response:
        csrf_check(request._request)
        data = self.InputSerializer(data=request.data)
        data.is_valid(raise_exception=True)
        user = invitation_accept(
            token=data.validated_data["token"], password=data.validated_data["password"]
        )
        return Response({"username": user.get_username()}, status=status.HTTP_201_CREATED)


class SignInMethodsApi(_Public):
    class OutputSerializer(serializers.Serializer):
        password = serializers.BooleanField(help_text="false: PASSWORD_SIGN_IN is off.")
        sso = serializers.BooleanField(help_text="An OpenID Connect provider is configured.")
        sso_label = serializers.CharField(help_text="The SSO button's words.")
        sso_url = serializers.CharField(
            help_text="Where the browser goes to sign in with SSO (add ?next=/console/...)."
        )

    @extend_schema(
        operation_id="auth_methods",
        tags=["auth"],
        summary="How people sign in here: password, single sign-on, or both",
        responses={200: OutputSerializer},
    )
    def get(self, request: Request) -> Response:
        body = {
            "password": settings.PASSWORD_SIGN_IN,
            "sso": settings.SSO_ENABLED,
            "sso_label": settings.SSO_BUTTON_LABEL,
            "sso_url": "/api/auth/oidc/start/",
        }
        return Response(self.OutputSerializer(body).data)


class MeApi(APIView):
    authentication_classes = [SessionAuthentication]
    permission_classes = [IsAuthenticated]

    class OutputSerializer(serializers.Serializer):
        username = serializers.CharField()
        role = serializers.ChoiceField(
            choices=Role.choices, allow_blank=True, help_text='"": no role (may not sign in).'
        )
        gurus = serializers.ListField(
            child=serializers.SlugField(),
            help_text="The gurus granted: managed (maintainer) or readable (member).",
        )

    @extend_schema(
        operation_id="auth_me",
        tags=["auth"],
        summary="Your role and the gurus granted to you (the console shows only those)",
        responses={200: OutputSerializer, **errors(401, 403)},
        examples=[
            OpenApiExample(
                "member",
                value={"username": "lin@example.com", "role": "member", "gurus": ["python"]},
                response_only=True,
            )
        ],
    )
    def get(self, request: Request) -> Response:
        user: Any = request.user
        granted = GuruGrant.objects.filter(user_id=user.pk).order_by("guru__slug")
        body = {
            "username": user.get_username(),
            "role": str(role_of(user) or ""),
            "gurus": list(granted.values_list("guru__slug", flat=True)),
        }
        return Response(self.OutputSerializer(body).data)


class PasswordChangeApi(APIView):
    authentication_classes = [SessionAuthentication]  # a person in the console, CSRF checked
    permission_classes = [IsAuthenticated]

    class InputSerializer(serializers.Serializer):
        old_password = serializers.CharField(max_length=1024, trim_whitespace=False)
        new_password = serializers.CharField(max_length=1024, trim_whitespace=False)

    @extend_schema(
        operation_id="password_change",
        tags=["auth"],
        summary="Change your password (signed in; this session stays signed in)",
        request=InputSerializer,
        responses={204: None, **errors(400, 401, 403)},
    )
    def post(self, request: Request) -> Response:
        data = self.InputSerializer(data=request.data)
        data.is_valid(raise_exception=True)
        user: Any = request.user
        password_change(user=user, **data.validated_data)
        update_session_auth_hash(request._request, user)  # the other sessions end
        return Response(status=status.HTTP_204_NO_CONTENT)


def _reset_limit_check(request: Request) -> None:
    key = f"password-resets:{client_fingerprint(client_ip(request._request))}"
    count = cache_guarded(
        lambda: window_count(key, timeout=RESET_WINDOW_SECONDS), use="password_resets", default=0
    )
    if count > RESETS_ALLOWED:
        raise DomainError(
            ErrorCode.RATE_LIMITED,
            "Too many password-reset requests; try again later.",
            retry_after=RESET_WINDOW_SECONDS,
        )


class PasswordResetApi(_Public):
    class InputSerializer(serializers.Serializer):
        email = serializers.EmailField()

    @extend_schema(
        operation_id="password_reset_request",
        tags=["auth"],
        summary="E-mail a password-reset link (the same answer whether the address is known)",
        request=InputSerializer,
        responses={202: None, **errors(400, 403, 429)},
        examples=[OpenApiExample("reset", value={"email": "lin@example.com"}, request_only=True)],
    )
    def post(self, request: Request) -> Response:
        csrf_check(request._request)
        data = self.InputSerializer(data=request.data)
        data.is_valid(raise_exception=True)
        _reset_limit_check(request)
        password_reset_request(email=data.validated_data["email"])
        return Response(status=status.HTTP_202_ACCEPTED)


class PasswordResetConfirmApi(_Public):
    class InputSerializer(serializers.Serializer):
        uid = serializers.CharField(max_length=64)
        token = serializers.CharField(max_length=200)
        new_password = serializers.CharField(max_length=1024, trim_whitespace=False)

    @extend_schema(
        operation_id="password_reset_confirm",
        tags=["auth"],
        summary="Set a new password with the uid and token of a reset link (CSRF checked)",
        request=InputSerializer,
        responses={204: None, **errors(400, 403, more=_LINK_INVALID)},
    )
    def post(self, request: Request) -> Response:
        csrf_check(request._request)
        data = self.InputSerializer(data=request.data)
        data.is_valid(raise_exception=True)
        password_reset_confirm(**data.validated_data)
        return Response(status=status.HTTP_204_NO_CONTENT)

"""People, for admins: list, change role, grant and revoke gurus, deactivate; invitations."""

from typing import Any

from django.contrib.auth.models import User
from drf_spectacular.utils import OpenApiExample, extend_schema
from rest_framework import serializers, status
from rest_framework.request import Request
from rest_framework.response import Response
from rest_framework.views import APIView

from openguru.accounts.invitations import invitation_create, invitation_revoke
from openguru.accounts.models import Invitation, Role
from openguru.accounts.selectors import invitation_list_pending, member_get, member_list
from openguru.accounts.services import (
    guru_grant_add,
    guru_grant_remove,
    member_state,
    member_update,
)
from openguru.core.auth import IsAdmin
from openguru.core.openapi import errors
from openguru.gurus.models import Guru
from openguru.gurus.selectors import guru_get


class MemberOutput(serializers.Serializer):
    id = serializers.IntegerField()
    username = serializers.CharField()
    email = serializers.EmailField(allow_blank=True)
    role = serializers.ChoiceField(
        choices=Role.choices, allow_blank=True, help_text='"": no role (may not sign in).'
    )
    active = serializers.BooleanField()
    gurus = serializers.ListField(
        child=serializers.SlugField(), help_text="Managed (maintainer) or readable (member)."
    )
    last_login = serializers.DateTimeField(allow_null=True)
    date_joined = serializers.DateTimeField()


def _member(user: User) -> dict[str, Any]:
    return {
        "id": user.pk,
        "username": user.get_username(),
        "email": user.email,
        **member_state(user=user),
        "gurus": [grant.guru.slug for grant in user.guru_grants.all()],
        "last_login": user.last_login,
        "date_joined": user.date_joined,
    }


_MEMBER = {
    "id": 4,
    "username": "lin@example.com",
    "email": "lin@example.com",
    "role": "maintainer",
    "active": True,
    "gurus": ["python"],
    "last_login": "2025-01-02T09:00:00Z",
    "date_joined": "2025-01-01T12:00:00Z",
}


class _AdminsOnly(APIView):
    # People and roles are for admins alone: a maintainer may not make admins.
    permission_classes = [IsAdmin]


class MemberListApi(_AdminsOnly):
    @extend_schema(
        operation_id="member_list",
        tags=["members"],
        summary="Everyone with an account, their role and gurus",
        responses={200: MemberOutput(many=True), **errors(401, 403)},
        examples=[OpenApiExample("members", value=[_MEMBER], response_only=True)],
    )
    def get(self, request: Request) -> Response:
        return Response(MemberOutput([_member(u) for u in member_list()], many=True).data)


class MemberDetailApi(_AdminsOnly):
    class InputSerializer(serializers.Serializer):
        role = serializers.ChoiceField(choices=Role.choices, required=False)
        active = serializers.BooleanField(
            required=False, help_text="false: may no longer sign in; their API keys stop working."
        )

    @extend_schema(
        operation_id="member_update",
        tags=["members"],
        summary="Change a person's role, or deactivate them",
        request=InputSerializer,
        responses={200: MemberOutput, **errors(400, 401, 403, 404)},
        examples=[
            OpenApiExample("make maintainer", value={"role": "maintainer"}, request_only=True),
            OpenApiExample("member", value=_MEMBER, response_only=True),
        ],
    )
    def patch(self, request: Request, user_id: int) -> Response:
        data = self.InputSerializer(data=request.data)
        data.is_valid(raise_exception=True)
        user = member_get(user_id=user_id)
        role = data.validated_data.get("role")
        member_update(
            user=user,
            by=request.user,
            role=Role(role) if role else None,
            active=data.validated_data.get("active"),
        )
        return Response(MemberOutput(_member(member_get(user_id=user_id))).data)


class MemberGuruListApi(_AdminsOnly):
    class InputSerializer(serializers.Serializer):
        guru = serializers.SlugField(max_length=64, help_text="The guru's slug.")

    @extend_schema(
        operation_id="member_guru_grant",
        tags=["members"],
        summary="Grant a guru to a person (a maintainer manages it, a member reads it)",
        request=InputSerializer,
        responses={200: MemberOutput, **errors(400, 401, 403, 404)},
        examples=[OpenApiExample("grant", value={"guru": "python"}, request_only=True)],
    )
    def post(self, request: Request, user_id: int) -> Response:
        data = self.InputSerializer(data=request.data)
        data.is_valid(raise_exception=True)
        guru_grant_add(
            user=member_get(user_id=user_id), guru=guru_get(slug=data.validated_data["guru"])
        )
        return Response(MemberOutput(_member(member_get(user_id=user_id))).data)


class MemberGuruDetailApi(_AdminsOnly):
    @extend_schema(
        operation_id="member_guru_revoke",
        tags=["members"],
        summary="Take a guru away from a person",
        responses={204: None, **errors(401, 403, 404)},
    )
    def delete(self, request: Request, user_id: int, guru_slug: str) -> Response:
        guru_grant_remove(user=member_get(user_id=user_id), guru=guru_get(slug=guru_slug))
        return Response(status=status.HTTP_204_NO_CONTENT)


class InvitationOutput(serializers.ModelSerializer):
    gurus: serializers.SlugRelatedField[Guru] = serializers.SlugRelatedField(
        many=True, read_only=True, slug_field="slug"
    )
    invited_by = serializers.CharField(source="invited_by.username", default="", read_only=True)

    class Meta:
        model = Invitation
        fields = ["id", "email", "role", "gurus", "invited_by", "created_at", "expires_at"]


class InvitationCreatedOutput(InvitationOutput):
    url = serializers.URLField(
        help_text="The one-time link, also e-mailed: hand it over yourself if the mail failed."
    )
    email_sent = serializers.BooleanField()

    class Meta(InvitationOutput.Meta):
        fields = [*InvitationOutput.Meta.fields, "url", "email_sent"]


_INVITATION = {
    "id": 2,
    "email": "lin@example.com",
    "role": "maintainer",
    "gurus": ["python"],
    "invited_by": "ada",
    "created_at": "2025-01-01T12:00:00Z",
    "expires_at": "2025-01-04T12:00:00Z",
}


class InvitationListApi(_AdminsOnly):
    class InputSerializer(serializers.Serializer):
        email = serializers.EmailField()
        role = serializers.ChoiceField(choices=Role.choices)
        gurus = serializers.ListField(
            child=serializers.SlugField(max_length=64), required=False, default=list
        )

    @extend_schema(
        operation_id="invitation_list",
        tags=["members"],
        summary="Invitations not yet accepted, revoked or expired",
        responses={200: InvitationOutput(many=True), **errors(401, 403)},
        examples=[OpenApiExample("open", value=[_INVITATION], response_only=True)],
    )
    def get(self, request: Request) -> Response:
        return Response(InvitationOutput(invitation_list_pending(), many=True).data)

    @extend_schema(
        operation_id="invitation_create",
        tags=["members"],
        summary="Invite a person by e-mail (a one-time link that expires)",
        request=InputSerializer,
        responses={201: InvitationCreatedOutput, **errors(400, 401, 403, 404, 409)},
        examples=[
            OpenApiExample(
                "maintainer",
                value={"email": "lin@example.com", "role": "maintainer", "gurus": ["python"]},
                request_only=True,
            ),
            OpenApiExample(
                "sent",
                value={
                    **_INVITATION,
                    "url": "https://guru.example.com/console/accept-invitation?token=…",
                    "email_sent": True,
                },
                response_only=True,
                status_codes=["201"],
            ),
        ],
    )
    def post(self, request: Request) -> Response:
        data = self.InputSerializer(data=request.data)
        data.is_valid(raise_exception=True)
        sent = invitation_create(
            email=data.validated_data["email"],
            role=Role(data.validated_data["role"]),
            gurus=[guru_get(slug=slug) for slug in data.validated_data["gurus"]],
            invited_by=request.user,
        )
        body = {
            **InvitationOutput(sent.invitation).data,
            "url": sent.url,
            "email_sent": sent.email_sent,
        }
        return Response(body, status=status.HTTP_201_CREATED)


class InvitationDetailApi(_AdminsOnly):
    @extend_schema(
        operation_id="invitation_revoke",
        tags=["members"],
        summary="Revoke an invitation (its link stops working)",
        responses={204: None, **errors(401, 403, 404)},
    )
    def delete(self, request: Request, invitation_id: int) -> Response:
        invitation_revoke(invitation_id=invitation_id)
        return Response(status=status.HTTP_204_NO_CONTENT)

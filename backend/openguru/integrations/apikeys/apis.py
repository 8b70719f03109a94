"""Personal API keys for the signed-in user: create (the key is shown once), list, revoke."""

from typing import Any

from django.contrib.auth.models import User
from drf_spectacular.utils import OpenApiExample, extend_schema
from rest_framework import serializers, status
from rest_framework.authentication import SessionAuthentication
from rest_framework.permissions import IsAuthenticated
from rest_framework.request import Request
from rest_framework.response import Response
from rest_framework.views import APIView

from openguru.core.auth import AdminTokenAuthentication, AdminTokenUser
from openguru.core.errors import ErrorCode
from openguru.core.openapi import errors
from openguru.gurus.models import Guru
from openguru.integrations.apikeys.selectors import api_key_list
from openguru.integrations.apikeys.services import admin_token_owner, api_key_create, api_key_delete
from openguru.integrations.models import APIKey


def _owner(request: Request) -> User:
    if isinstance(request.user, AdminTokenUser):
        return admin_token_owner()
    user: User = request.user  # type: ignore[assignment]
    return user


class APIKeyOutput(serializers.ModelSerializer):
    scope = serializers.ChoiceField(
        choices=APIKey.Scope.choices,
        help_text='"": all of its owner\'s rights; "ask": answers, search and sessions; '
        '"manage": those and changing sources. Never more than its owner may do.',
    )
    gurus: serializers.SlugRelatedField[Guru] = serializers.SlugRelatedField(
        slug_field="slug",
        many=True,
        read_only=True,
        help_text="The only gurus it may reach; empty: any its owner may.",
    )

    class Meta:
        model = APIKey
        fields = ["id", "name", "prefix", "scope", "gurus", "created_at", "last_used_at"]


class APIKeyCreatedOutput(APIKeyOutput):
    key = serializers.CharField(help_text="The whole key. Shown once: store it now.")

    class Meta(APIKeyOutput.Meta):
        fields = [*APIKeyOutput.Meta.fields, "key"]


_KEY = {
    "id": 3,
    "name": "ci",
    "prefix": "og_Xb3k9Tq",
    "scope": "ask",
    "gurus": ["python"],
    "created_at": "2025-01-01T12:00:00Z",
    "last_used_at": None,
}


class _SignedIn(APIView):
    # A key cannot mint or list keys: only a person signed in (or the admin token) can.
    authentication_classes = [AdminTokenAuthentication, SessionAuthentication]
    permission_classes = [IsAuthenticated]


class APIKeyListApi(_SignedIn):
    class InputSerializer(serializers.Serializer):
        name = serializers.CharField(max_length=100)
        scope = serializers.ChoiceField(
            choices=APIKey.Scope.choices,
            required=False,
            default=APIKey.Scope.ALL,
            help_text='"" (all of your rights), "ask" or "manage".',
        )
        gurus = serializers.ListField(
            child=serializers.SlugField(max_length=64),
            required=False,
            default=list,
            max_length=100,
            help_text="Slugs of the only gurus it may reach; empty: any you may.",
        )

    @extend_schema(
        operation_id="api_key_list",
        tags=["api keys"],
        summary="Your API keys (never the keys themselves)",
        responses={200: APIKeyOutput(many=True), **errors(401)},
        examples=[OpenApiExample("keys", value=[_KEY], response_only=True)],
    )
    def get(self, request: Request) -> Response:
        return Response(APIKeyOutput(api_key_list(user=_owner(request)), many=True).data)

    @extend_schema(
        operation_id="api_key_create",
        tags=["api keys"],
        summary="Create an API key (the key is in this response only)",
        request=InputSerializer,
        responses={
            201: APIKeyCreatedOutput,
            **errors(
                400,
                401,
                404,
                more={400: [(ErrorCode.API_KEY_LIMIT, "You can have at most 5 API keys.")]},
            ),
        },
        examples=[
            OpenApiExample("key", value={"name": "ci"}, request_only=True),
            OpenApiExample(
                "scoped key",
                value={"name": "docs bot", "scope": "ask", "gurus": ["python"]},
                request_only=True,
            ),
            OpenApiExample(
                "created",
                value={**_KEY, "key": "og_Xb3k9Tq…the rest of the key…"},
                response_only=True,
                status_codes=["201"],
            ),
        ],
    )
    def post(self, request: Request) -> Response:
        data = self.InputSerializer(data=request.data)
        data.is_valid(raise_exception=True)
        values = data.validated_data
        key, raw = api_key_create(
            user=_owner(request),
            name=values["name"],
            scope=values["scope"],
            guru_slugs=values["gurus"],
        )
        body: dict[str, Any] = {**APIKeyOutput(key).data, "key": raw}
        return Response(body, status=status.HTTP_201_CREATED)

    class DeleteSerializer(serializers.Serializer):
        id = serializers.IntegerField()

    @extend_schema(
        operation_id="api_key_revoke_by_body",
        tags=["api keys"],
        summary="Revoke an API key named in the body",
        request=DeleteSerializer,
        responses={204: None, **errors(400, 401, 404)},
        examples=[OpenApiExample("key", value={"id": 3}, request_only=True)],
    )
    def delete(self, request: Request) -> Response:
        """Gurubase's form: the key's id in the body."""
        data = self.DeleteSerializer(data=request.data)
        data.is_valid(raise_exception=True)
        api_key_delete(user=_owner(request), key_id=data.validated_data["id"])
        return Response(status=status.HTTP_204_NO_CONTENT)


class APIKeyDetailApi(_SignedIn):
    @extend_schema(
        operation_id="api_key_revoke",
        tags=["api keys"],
        summary="Revoke an API key",
        responses={204: None, **errors(401, 404)},
    )
    def delete(self, request: Request, key_id: int) -> Response:
        api_key_delete(user=_owner(request), key_id=key_id)
        return Response(status=status.HTTP_204_NO_CONTENT)

"""Personal API keys for the signed-in user: create (the key is shown once), list, revoke; and
the admins' widget ids of a guru."""

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
from openguru.gurus.selectors import guru_get
from openguru.integrations.models import APIKey, WidgetId
from openguru.integrations.selectors import api_key_list, widget_id_list
from openguru.integrations.services import (
    admin_token_owner,
    api_key_create,
    api_key_delete,
    widget_id_create,
    widget_id_delete,
)


def _owner(request: Request) -> User:
    if isinstance(request.user, AdminTokenUser):
        return admin_token_owner()
    user: User = request.user  # type: ignore[assignment]
    return user


class APIKeyOutput(serializers.ModelSerializer):
    class Meta:
        model = APIKey
        fields = ["id", "name", "prefix", "created_at", "last_used_at"]


class APIKeyCreatedOutput(APIKeyOutput):
    key = serializers.CharField(help_text="The whole key. Shown once: store it now.")

    class Meta(APIKeyOutput.Meta):
        fields = [*APIKeyOutput.Meta.fields, "key"]


_KEY = {
    "id": 3,
    "name": "ci",
    "prefix": "og_Xb3k9Tq",
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
                more={400: [(ErrorCode.API_KEY_LIMIT, "You can have at most 5 API keys.")]},
            ),
        },
        examples=[
            OpenApiExample("key", value={"name": "ci"}, request_only=True),
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
        key, raw = api_key_create(user=_owner(request), name=data.validated_data["name"])
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


class WidgetIdOutput(serializers.ModelSerializer):
    key = serializers.CharField(help_text="Put it in the page: the widget's data-widget-id.")

    class Meta:
        model = WidgetId
        fields = ["id", "key", "domain_pattern", "created_at"]


_WIDGET_ID = {
    "id": 7,
    "key": "Jx3v0m8kq2cR1xZt6fYb9wLpQe4sHn5u",
    "domain_pattern": "*.example.com",
    "created_at": "2025-01-01T12:00:00Z",
}


class WidgetIdListApi(APIView):
    """A guru's widget ids (admins): each lets pages on its domains embed the widget."""

    class InputSerializer(serializers.Serializer):
        domain_pattern = serializers.CharField(
            max_length=300,
            required=False,
            allow_blank=True,
            help_text='"docs.example.com", "https://docs.example.com", "*.example.com" '
            '(sub-domains), "http://localhost:*" (any port); empty: any site.',
        )

    @extend_schema(
        operation_id="widget_id_list",
        tags=["widget ids"],
        summary="A guru's widget ids",
        responses={200: WidgetIdOutput(many=True), **errors(401, 403, 404)},
        examples=[OpenApiExample("ids", value=[_WIDGET_ID], response_only=True)],
    )
    def get(self, request: Request, slug: str) -> Response:
        widgets = widget_id_list(guru=guru_get(slug=slug))
        return Response(WidgetIdOutput(widgets, many=True).data)

    @extend_schema(
        operation_id="widget_id_create",
        tags=["widget ids"],
        summary="Create a widget id for a guru",
        request=InputSerializer,
        responses={201: WidgetIdOutput, **errors(400, 401, 403, 404)},
        examples=[
            OpenApiExample(
                "docs site", value={"domain_pattern": "*.example.com"}, request_only=True
            ),
            OpenApiExample("created", value=_WIDGET_ID, response_only=True, status_codes=["201"]),
        ],
    )
    def post(self, request: Request, slug: str) -> Response:
        data = self.InputSerializer(data=request.data)
        data.is_valid(raise_exception=True)
        widget = widget_id_create(
            guru=guru_get(slug=slug), domain_pattern=data.validated_data.get("domain_pattern", "")
        )
        return Response(WidgetIdOutput(widget).data, status=status.HTTP_201_CREATED)


class WidgetIdDetailApi(APIView):
    @extend_schema(
        operation_id="widget_id_delete",
        tags=["widget ids"],
        summary="Delete a widget id (its pages get 401 from then on)",
        responses={204: None, **errors(401, 403, 404)},
    )
    def delete(self, request: Request, slug: str, widget_id: int) -> Response:
        widget_id_delete(guru=guru_get(slug=slug), widget_id=widget_id)
        return Response(status=status.HTTP_204_NO_CONTENT)

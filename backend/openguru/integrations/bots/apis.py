"""Admins set up a guru's Slack, Discord and Teams bots: tokens go in, never come out."""

from typing import Any

from drf_spectacular.utils import OpenApiExample, extend_schema
from rest_framework import serializers, status
from rest_framework.request import Request
from rest_framework.response import Response
from rest_framework.views import APIView

from openguru.core.auth import AdminTokenUser
from openguru.core.openapi import always_present, errors
from openguru.gurus.selectors import guru_get
from openguru.integrations.apikeys.services import admin_token_owner
from openguru.integrations.bots.connection_check import integration_connection_check
from openguru.integrations.bots.selectors import integration_get, integration_list
from openguru.integrations.bots.services import (
    IntegrationSetup,
    integration_create,
    integration_delete,
    integration_update,
)
from openguru.integrations.models import Integration

CHANNEL_MODES = ["mention", "all"]


class ChannelSerializer(serializers.Serializer):
    id = serializers.CharField(max_length=100, help_text="Slack channel id, Discord channel id.")
    name = serializers.CharField(max_length=200, required=False, allow_blank=True, default="")
    mode = serializers.ChoiceField(
        choices=CHANNEL_MODES,
        default="mention",
        help_text="mention: answer when the bot is mentioned; all: answer every message.",
    )


class ChannelOutput(serializers.Serializer):
    """A channel as stored: the input's defaults filled in."""

    id = serializers.CharField(read_only=True)
    name = serializers.CharField(read_only=True, default="")
    mode = serializers.ChoiceField(choices=CHANNEL_MODES, read_only=True, default="mention")


class IntegrationOutput(serializers.ModelSerializer):
    channels = ChannelOutput(many=True, read_only=True)
    has_token = serializers.SerializerMethodField()
    has_signing_secret = serializers.SerializerMethodField()
    api_key_prefix = serializers.SerializerMethodField()

    class Meta:
        model = Integration
        fields = [
            "id",
            "type",
            "external_id",
            "workspace_name",
            "channels",
            "dms_enabled",
            "tenant_id",
            "has_token",
            "has_signing_secret",
            "api_key_prefix",
            "created_at",
        ]
        extra_kwargs = always_present(fields)

    def get_has_token(self, integration: Integration) -> bool:
        return bool(integration.access_token)

    def get_has_signing_secret(self, integration: Integration) -> bool:
        return bool(integration.signing_secret)

    def get_api_key_prefix(self, integration: Integration) -> str | None:
        return integration.api_key.prefix if integration.api_key else None


class _SetupInput(serializers.Serializer):
    external_id = serializers.CharField(
        max_length=200,
        help_text="The Slack team id (T…), the Discord guild id, or the Teams bot's Microsoft "
        "app id.",
    )
    workspace_name = serializers.CharField(max_length=200, required=False, allow_blank=True)
    bot_token = serializers.CharField(
        max_length=500,
        write_only=True,
        help_text="The bot token; for Teams the app's client secret. Stored encrypted; never "
        "returned.",
    )
    signing_secret = serializers.CharField(
        max_length=200,
        required=False,
        write_only=True,
        help_text="Slack only (its app's Basic Information page): stored encrypted.",
    )
    channels = ChannelSerializer(many=True, required=False)
    dms_enabled = serializers.BooleanField(required=False)
    tenant_id = serializers.CharField(
        max_length=100,
        required=False,
        allow_blank=True,
        help_text="Teams only: the Microsoft Entra tenant id of a single-tenant app.",
    )


def _channel(data: dict[str, Any]) -> dict[str, str]:
    # A PATCH's nested channels get no defaults from DRF (partial): fill them in here.
    return {"id": data["id"], "name": data.get("name", ""), "mode": data.get("mode", "mention")}


def _setup(data: dict[str, Any]) -> IntegrationSetup:
    return IntegrationSetup(
        external_id=data.get("external_id"),
        workspace_name=data.get("workspace_name"),
        bot_token=data.get("bot_token"),
        signing_secret=data.get("signing_secret"),
        channels=[_channel(c) for c in data["channels"]] if "channels" in data else None,
        dms_enabled=data.get("dms_enabled"),
        tenant_id=data.get("tenant_id"),
    )


_INTEGRATION = {
    "id": 4,
    "type": "SLACK",
    "external_id": "T0123ABCD",
    "workspace_name": "Acme",
    "channels": [{"id": "C0456EFGH", "name": "help", "mode": "mention"}],
    "dms_enabled": False,
    "tenant_id": "",
    "has_token": True,
    "has_signing_secret": True,
    "api_key_prefix": "og_Xb3k9Tq",
    "created_at": "2025-01-01T12:00:00Z",
}
_SETUP = {
    "type": "SLACK",
    "external_id": "T0123ABCD",
    "bot_token": "xoxb-…",
    "signing_secret": "8f14e45fceea167a5a36dedd4bea2543",
    "channels": [{"id": "C0456EFGH", "name": "help", "mode": "mention"}],
}


class IntegrationListApi(APIView):
    class InputSerializer(_SetupInput):
        type = serializers.ChoiceField(choices=Integration.Type.choices)

        def validate_type(self, value: str) -> str:
            # A GitHub App needs its app id, key and webhook secret, which only its own route takes.
            if value == Integration.Type.GITHUB:
                raise serializers.ValidationError(
                    "Set up a GitHub App through this guru's integrations/github/ route, "
                    "with its app id, private key and webhook secret."
                )
            return value

    @extend_schema(
        operation_id="integration_list",
        tags=["integrations"],
        summary="A guru's Slack and Discord bots (never their tokens)",
        responses={200: IntegrationOutput(many=True), **errors(401, 403, 404)},
        examples=[OpenApiExample("bots", value=[_INTEGRATION], response_only=True)],
    )
    def get(self, request: Request, slug: str) -> Response:
        found = integration_list(guru=guru_get(slug=slug))
        return Response(IntegrationOutput(found, many=True).data)

    @extend_schema(
        operation_id="integration_create",
        tags=["integrations"],
        summary="Set up a Slack or Discord bot for a guru",
        request=InputSerializer,
        responses={201: IntegrationOutput, **errors(400, 401, 403, 404, 409)},
        examples=[
            OpenApiExample("slack", value=_SETUP, request_only=True),
            OpenApiExample("created", value=_INTEGRATION, response_only=True, status_codes=["201"]),
        ],
    )
    def post(self, request: Request, slug: str) -> Response:
        data = self.InputSerializer(data=request.data)
        data.is_valid(raise_exception=True)
        owner = admin_token_owner() if isinstance(request.user, AdminTokenUser) else request.user
        integration = integration_create(
            guru=guru_get(slug=slug),
            type=data.validated_data["type"],
            setup=_setup(data.validated_data),
            owner=owner,  # type: ignore[arg-type]
        )
        return Response(IntegrationOutput(integration).data, status=status.HTTP_201_CREATED)


class IntegrationDetailApi(APIView):
    class InputSerializer(_SetupInput):
        pass

    @extend_schema(
        operation_id="integration_get",
        tags=["integrations"],
        summary="One of a guru's bots",
        responses={200: IntegrationOutput, **errors(401, 403, 404)},
        examples=[OpenApiExample("bot", value=_INTEGRATION, response_only=True)],
    )
    def get(self, request: Request, slug: str, integration_id: int) -> Response:
        integration = integration_get(guru=guru_get(slug=slug), integration_id=integration_id)
        return Response(IntegrationOutput(integration).data)

    @extend_schema(
        operation_id="integration_update",
        tags=["integrations"],
        summary="Change a bot's channels, DMs or tokens",
        request=InputSerializer(partial=True),
        responses={200: IntegrationOutput, **errors(400, 401, 403, 404, 409)},
        examples=[
            OpenApiExample(
                "answer every question in #help",
                value={"channels": [{"id": "C0456EFGH", "mode": "all"}], "dms_enabled": True},
                request_only=True,
            ),
            OpenApiExample("updated", value=_INTEGRATION, response_only=True),
        ],
    )
    def patch(self, request: Request, slug: str, integration_id: int) -> Response:
        integration = integration_get(guru=guru_get(slug=slug), integration_id=integration_id)
        data = self.InputSerializer(data=request.data, partial=True)
        data.is_valid(raise_exception=True)
        integration_update(integration=integration, setup=_setup(data.validated_data))
        return Response(IntegrationOutput(integration).data)

    @extend_schema(
        operation_id="integration_delete",
        tags=["integrations"],
        summary="Remove a bot (and its integration API key)",
        responses={204: None, **errors(401, 403, 404)},
    )
    def delete(self, request: Request, slug: str, integration_id: int) -> Response:
        integration = integration_get(guru=guru_get(slug=slug), integration_id=integration_id)
        integration_delete(integration=integration)
        return Response(status=status.HTTP_204_NO_CONTENT)


class IntegrationTestApi(APIView):
    class OutputSerializer(serializers.Serializer):
        ok = serializers.BooleanField()
        detail = serializers.CharField(help_text="What worked, or what to fix.")

    @extend_schema(
        operation_id="integration_test",
        tags=["integrations"],
        summary="Check a bot's token with its platform (Slack auth.test, Discord /users/@me)",
        responses={200: OutputSerializer, **errors(401, 403, 404)},
        examples=[
            OpenApiExample(
                "works",
                value={"ok": True, "detail": "Connected to Acme as guru."},
                response_only=True,
            ),
            OpenApiExample(
                "refused",
                value={"ok": False, "detail": "Slack refused the bot token: invalid_auth."},
                response_only=True,
            ),
        ],
    )
    def get(self, request: Request, slug: str, integration_id: int) -> Response:
        integration = integration_get(guru=guru_get(slug=slug), integration_id=integration_id)
        check = integration_connection_check(integration=integration)
        return Response({"ok": check.ok, "detail": check.detail})

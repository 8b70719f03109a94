"""POST /api/teams/messages/: the Teams bot's messaging endpoint (the Azure Bot resource's
"Messaging endpoint"); GET …/integrations/<id>/teams/manifest/: its app package for Teams."""

from typing import Any

from django.conf import settings
from django.http import HttpResponse
from drf_spectacular.utils import OpenApiExample, OpenApiParameter, OpenApiResponse, extend_schema
from rest_framework import serializers, status
from rest_framework.permissions import AllowAny
from rest_framework.request import Request
from rest_framework.response import Response
from rest_framework.views import APIView

from openguru.core.errors import DomainError, ErrorCode
from openguru.core.json_body import json_loads_bounded
from openguru.core.openapi import errors
from openguru.gurus.selectors import guru_get
from openguru.integrations.bots.selectors import integration_get
from openguru.integrations.bots.teams_auth import TeamsTokenInvalid
from openguru.integrations.bots.teams_events import (
    teams_activity_accept,
    teams_integration_verified,
)
from openguru.integrations.bots.teams_manifest import teams_app_package
from openguru.integrations.models import Integration

_UNSIGNED = "The request carries no valid Bot Framework token for a Teams bot set up here."


class TeamsMessagesApi(APIView):
    # The Bot Connector signs each activity with a JWT for the bot's app id: the only credential.
    authentication_classes: list[Any] = []
    permission_classes = [AllowAny]

    class InputSerializer(serializers.Serializer):
        type = serializers.CharField(help_text="message, conversationUpdate…; messages answered.")
        id = serializers.CharField(required=False, help_text="Each activity is taken once.")
        channelId = serializers.CharField(required=False, help_text="msteams")
        serviceUrl = serializers.CharField(
            required=False, help_text="Where the answer is sent; the token must name it."
        )
        conversation = serializers.JSONField(required=False)
        text = serializers.CharField(required=False)

    @extend_schema(
        operation_id="teams_messages",
        tags=["integrations"],
        summary="Microsoft Teams messaging endpoint (Bot Framework activities)",
        description="Verifies the Authorization bearer token (RS256, issuer "
        "https://api.botframework.com, audience a Teams integration's app id, a key from "
        "TEAMS_OPENID_METADATA_URL's JWKS, the activity's serviceUrl) and acknowledges at "
        "once: answers are written in the conversation or channel thread by a background task.",
        auth=[],
        parameters=[OpenApiParameter("Authorization", str, OpenApiParameter.HEADER, required=True)],
        request=InputSerializer,
        responses={
            202: None,
            **errors(400, 401, 503, more={401: [(ErrorCode.NOT_AUTHENTICATED, _UNSIGNED)]}),
        },
        examples=[
            OpenApiExample(
                "mention in a channel",
                value={
                    "type": "message",
                    "id": "1481567603816",
                    "channelId": "msteams",
                    "serviceUrl": "https://smba.trafficmanager.net/amer/",
                    "from": {"id": "29:1XJKJMvc5GBtc2JwZq0oj8tHZmzrQgFmB39ATiQWA85g"},
                    "recipient": {"id": "28:00000000-0000-0000-0000-000000000001"},
                    "conversation": {
                        "id": "19:abc@thread.tacv2;messageid=1481567603816",
                        "conversationType": "channel",
                    },
                    "text": "<at>Guru</at> How do I create a virtual environment?",
                },
                request_only=True,
            ),
        ],
    )
    def post(self, request: Request) -> Response:
        try:
            activity = json_loads_bounded(request.body)
        except ValueError as exc:
            raise DomainError(ErrorCode.MALFORMED_JSON, "The body is not valid JSON.") from exc
        if not isinstance(activity, dict):
            raise DomainError(ErrorCode.INVALID_INPUT, "Send an activity (a JSON object).")
        try:
            integration = teams_integration_verified(
                authorization=str(request.headers.get("Authorization") or ""), activity=activity
            )
        except TeamsTokenInvalid as exc:
            raise DomainError(ErrorCode.NOT_AUTHENTICATED, _UNSIGNED) from exc
        teams_activity_accept(integration=integration, activity=activity)
        return Response(status=status.HTTP_202_ACCEPTED)


class TeamsManifestApi(APIView):
    @extend_schema(
        operation_id="teams_app_package",
        tags=["integrations"],
        summary="A Teams bot's app package (manifest.json and icons, zipped) to upload to Teams",
        responses={
            (200, "application/zip"): OpenApiResponse(bytes, description="The app package."),
            **errors(401, 403, 404),
        },
    )
    def get(self, request: Request, slug: str, integration_id: int) -> HttpResponse:
        integration = integration_get(guru=guru_get(slug=slug), integration_id=integration_id)
        if integration.type != Integration.Type.TEAMS:
            raise DomainError(ErrorCode.NOT_FOUND, "This integration is not a Teams bot.")
        package = teams_app_package(integration=integration, site_url=settings.SITE_URL)
        response = HttpResponse(package, content_type="application/zip")
        name = f"{integration.guru.slug}-teams-app.zip"
        response["Content-Disposition"] = f'attachment; filename="{name}"'
        return response

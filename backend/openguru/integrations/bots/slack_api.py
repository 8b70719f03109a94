"""POST /api/slack/events/: the Slack app's Request URL (Event Subscriptions)."""

from typing import Any

from drf_spectacular.utils import OpenApiExample, OpenApiParameter, extend_schema
from rest_framework import serializers
from rest_framework.permissions import AllowAny
from rest_framework.request import Request
from rest_framework.response import Response
from rest_framework.views import APIView

from openguru.core.errors import DomainError, ErrorCode
from openguru.core.json_body import json_loads_bounded
from openguru.core.openapi import errors
from openguru.integrations.bots.slack_events import slack_event_accept, slack_integration_verified

_UNSIGNED = "The request is not signed by a Slack app set up here."


class SlackEventsApi(APIView):
    # Slack signs its requests with the app's signing secret: that is the only credential.
    authentication_classes: list[Any] = []
    permission_classes = [AllowAny]

    class InputSerializer(serializers.Serializer):
        type = serializers.ChoiceField(choices=["url_verification", "event_callback"])
        challenge = serializers.CharField(required=False, help_text="url_verification only.")
        team_id = serializers.CharField(required=False, help_text="The workspace (T…).")
        api_app_id = serializers.CharField(required=False)
        event_id = serializers.CharField(required=False, help_text="Each event is taken once.")
        event = serializers.JSONField(required=False, help_text="app_mention, message…")

    class OutputSerializer(serializers.Serializer):
        ok = serializers.BooleanField(required=False)
        challenge = serializers.CharField(required=False, help_text="url_verification's echo.")

    @extend_schema(
        operation_id="slack_events",
        tags=["integrations"],
        summary="Slack Events API endpoint (signed by Slack)",
        description="Verifies X-Slack-Signature with the signing secret of the Slack "
        "integration of the payload's team (requests older than 5 minutes are refused), "
        "answers Slack's URL check, and acknowledges events at once: answers are written "
        "in the thread by a background task.",
        auth=[],
        parameters=[
            OpenApiParameter("X-Slack-Signature", str, OpenApiParameter.HEADER, required=True),
            OpenApiParameter(
                "X-Slack-Request-Timestamp", str, OpenApiParameter.HEADER, required=True
            ),
        ],
        request=InputSerializer,
        responses={
            200: OutputSerializer,
            **errors(
                400,
                401,
                more={401: [(ErrorCode.NOT_AUTHENTICATED, _UNSIGNED)]},
            ),
        },
        examples=[
            OpenApiExample(
                "mention",
                value={
                    "type": "event_callback",
                    "team_id": "T0123ABCD",
                    "event_id": "Ev0PV52K25",
                    "event": {
                        "type": "app_mention",
                        "user": "U0LAN0Z89",
                        "text": "<@U0BOT> How do I create a virtual environment?",
                        "ts": "1515449522.000016",
                        "channel": "C0456EFGH",
                    },
                },
                request_only=True,
            ),
            OpenApiExample("taken", value={"ok": True}, response_only=True),
        ],
    )
    def post(self, request: Request) -> Response:
        headers = request.headers
        if not headers.get("X-Slack-Signature") or not headers.get("X-Slack-Request-Timestamp"):
            raise DomainError(ErrorCode.NOT_AUTHENTICATED, _UNSIGNED)
        body: bytes = request.body
        try:
            payload = json_loads_bounded(body)
        except ValueError as exc:  # not JSON, not UTF-8, or nested too deeply
            raise DomainError(
                ErrorCode.MALFORMED_JSON, "The request body is not valid JSON."
            ) from exc
        if not isinstance(payload, dict):
            raise DomainError(ErrorCode.INVALID_INPUT, "Send a JSON object.")
        team_id = payload.get("team_id")
        integration = slack_integration_verified(
            team_id=team_id if isinstance(team_id, str) else "", body=body, headers=headers
        )
        if integration is None:
            raise DomainError(ErrorCode.NOT_AUTHENTICATED, _UNSIGNED)
        if payload.get("type") == "url_verification":
            return Response({"challenge": str(payload.get("challenge", ""))})
        if payload.get("type") == "event_callback":
            slack_event_accept(integration=integration, payload=payload)
        return Response({"ok": True})

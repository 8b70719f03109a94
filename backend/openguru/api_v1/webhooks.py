"""`POST /api/v1/<guru_slug>/webhooks/github/`: GitHub calls it on every push. No API key: the
request is trusted by its signature alone (see webhook_services)."""

from drf_spectacular.utils import OpenApiExample, OpenApiParameter, extend_schema
from rest_framework.permissions import AllowAny
from rest_framework.request import Request
from rest_framework.response import Response
from rest_framework.views import APIView

from openguru.api_v1.source_apis import IdsOutput
from openguru.api_v1.webhook_services import github_webhook_receive
from openguru.core.errors import ErrorCode
from openguru.core.openapi import errors

_SIGNATURE_MISMATCH = (
    ErrorCode.NOT_AUTHENTICATED,
    "The X-Hub-Signature-256 signature does not match.",
)


class GitHubWebhookApi(APIView):
    authentication_classes: list[type] = []
    permission_classes = [AllowAny]

    @extend_schema(
        operation_id="v1_github_webhook",
        tags=["v1 data sources"],
        summary="GitHub push webhook: re-index the repository's sources",
        description="Set it on the repository with the guru's `github_webhook_secret`. "
        "Trusted by its signature alone (no API key).",
        parameters=[
            OpenApiParameter(
                "X-GitHub-Event",
                str,
                OpenApiParameter.HEADER,
                description="`push` re-indexes; `ping` answers pong; others are ignored.",
            ),
            OpenApiParameter(
                "X-Hub-Signature-256",
                str,
                OpenApiParameter.HEADER,
                description="`sha256=<hex HMAC-SHA256 of the body with the secret>`.",
            ),
        ],
        request={"application/json": {"type": "object", "description": "GitHub's push"}},
        responses={200: IdsOutput, **errors(400, 401, 403, 404, more={401: [_SIGNATURE_MISMATCH]})},
        examples=[
            OpenApiExample(
                "push",
                value={
                    "ref": "refs/heads/main",
                    "repository": {"html_url": "https://github.com/python/peps"},
                },
                request_only=True,
            ),
            OpenApiExample(
                "re-indexed",
                value={"msg": "Queued 1 source(s) for re-indexing.", "ids": [7]},
                response_only=True,
            ),
        ],
    )
    def post(self, request: Request, guru_slug: str) -> Response:
        outcome = github_webhook_receive(
            guru_slug=guru_slug,
            event=request.headers.get("X-GitHub-Event", ""),
            delivery=request.headers.get("X-GitHub-Delivery", ""),
            signature=request.headers.get("X-Hub-Signature-256", ""),
            body=request.body,  # the raw bytes that were signed, read before any parser runs
            content_type=request.content_type or "",
        )
        return Response({"msg": outcome.msg, "ids": outcome.ids})

"""`POST /api/v1/<guru_slug>/webhooks/github/`: GitHub calls it on every push. No API key: the
request is trusted by its signature alone (see webhook_services)."""

from rest_framework.permissions import AllowAny
from rest_framework.request import Request
from rest_framework.response import Response
from rest_framework.views import APIView

from openguru.api_v1.webhook_services import github_webhook_receive


class GitHubWebhookApi(APIView):
    authentication_classes: list[type] = []
    permission_classes = [AllowAny]

    def post(self, request: Request, guru_slug: str) -> Response:
        outcome = github_webhook_receive(
            guru_slug=guru_slug,
            event=request.headers.get("X-GitHub-Event", ""),
            signature=request.headers.get("X-Hub-Signature-256", ""),
            body=request.body,  # the raw bytes that were signed, read before any parser runs
            content_type=request.content_type or "",
        )
        return Response({"msg": outcome.msg, "ids": outcome.ids})

"""A guru's GitHub App: set up by an admin (the console's Integrations tab), which repositories
its installation covers, and the app's webhook URL (signed by GitHub)."""

from typing import Any

from drf_spectacular.utils import OpenApiExample, OpenApiParameter, extend_schema
from rest_framework import serializers, status
from rest_framework.permissions import AllowAny
from rest_framework.request import Request
from rest_framework.response import Response
from rest_framework.views import APIView

from openguru.core.auth import AdminTokenUser
from openguru.core.errors import DomainError, ErrorCode
from openguru.core.json_body import json_loads_bounded
from openguru.core.openapi import errors
from openguru.gurus.selectors import guru_get
from openguru.integrations.apikeys.services import admin_token_owner
from openguru.integrations.bots.github_app_client import github_installation_repositories
from openguru.integrations.bots.github_app_events import (
    github_delivery_accept,
    github_integration_verified,
)
from openguru.integrations.bots.github_app_services import (
    GitHubAppSetup,
    github_app_create,
    github_app_update,
)
from openguru.integrations.bots.selectors import integration_get
from openguru.integrations.models import Integration

_UNSIGNED = "The delivery is not signed by a GitHub App set up here."


class RepositorySetting(serializers.Serializer):
    mode = serializers.ChoiceField(
        choices=["mention", "all"],
        default="mention",
        help_text="mention: answer when the bot is mentioned; all: also every new issue and "
        "discussion (with one of `labels`, when labels are named).",
    )
    labels = serializers.ListField(
        child=serializers.CharField(max_length=100), required=False, default=list
    )
    faq = serializers.BooleanField(
        required=False,
        default=False,
        help_text="Add a discussion's accepted answer to the guru as an FAQ entry.",
    )


class GitHubAppInput(serializers.Serializer):
    installation_id = serializers.RegexField(r"^\d{1,20}$", help_text="The installation's id.")
    app_id = serializers.RegexField(r"^\d{1,20}$", help_text="The app's id (its settings page).")
    private_key = serializers.CharField(
        max_length=10_000, write_only=True, help_text="The app's PEM private key; encrypted."
    )
    webhook_secret = serializers.CharField(
        max_length=200, write_only=True, help_text="The app's webhook secret; encrypted."
    )
    repositories = serializers.DictField(
        child=RepositorySetting(),
        required=False,
        help_text='Per repository ("owner/name"); one not named answers mentions.',
    )


class GitHubAppOutput(serializers.Serializer):
    id = serializers.IntegerField()
    installation_id = serializers.CharField(source="external_id")
    app_name = serializers.CharField(source="workspace_name")
    app_id = serializers.CharField(source="github_app.app_id")
    slug = serializers.CharField(source="github_app.slug", help_text="Mention it as @<slug>.")
    has_private_key = serializers.SerializerMethodField()
    has_webhook_secret = serializers.SerializerMethodField()
    repositories = serializers.DictField(
        source="github_app.repositories", child=RepositorySetting()
    )
    api_key_prefix = serializers.CharField(source="api_key.prefix", allow_null=True, default=None)

    def get_has_private_key(self, integration: Integration) -> bool:
        return bool(integration.github_app.private_key)

    def get_has_webhook_secret(self, integration: Integration) -> bool:
        return bool(integration.signing_secret)


class CoveredRepository(serializers.Serializer):
    full_name = serializers.CharField()
    html_url = serializers.CharField()
    private = serializers.BooleanField()


def _setup(data: dict[str, Any]) -> GitHubAppSetup:
    repositories = data.get("repositories")
    return GitHubAppSetup(
        installation_id=data.get("installation_id"),
        app_id=data.get("app_id"),
        private_key=data.get("private_key"),
        webhook_secret=data.get("webhook_secret"),
        repositories={k: dict(v) for k, v in repositories.items()} if repositories else None,
    )


def _github_integration(slug: str, integration_id: int) -> Integration:
    integration = integration_get(guru=guru_get(slug=slug), integration_id=integration_id)
    if integration.type != Integration.Type.GITHUB or not hasattr(integration, "github_app"):
        raise DomainError(ErrorCode.NOT_FOUND, f"Integration {integration_id} is no GitHub App.")
    return integration


class GitHubAppListApi(APIView):
    @extend_schema(
        operation_id="github_app_create",
        tags=["integrations"],
        summary="Set up a GitHub App installation for a guru",
        request=GitHubAppInput,
        responses={201: GitHubAppOutput, **errors(400, 401, 403, 404, 409, 502)},
    )
    def post(self, request: Request, slug: str) -> Response:
        data = GitHubAppInput(data=request.data)
        data.is_valid(raise_exception=True)
        owner = admin_token_owner() if isinstance(request.user, AdminTokenUser) else request.user
        integration = github_app_create(
            guru=guru_get(slug=slug),
            setup=_setup(data.validated_data),
            owner=owner,  # type: ignore[arg-type]
        )
        return Response(GitHubAppOutput(integration).data, status=status.HTTP_201_CREATED)


class GitHubAppDetailApi(APIView):
    class OutputSerializer(GitHubAppOutput):
        covered = CoveredRepository(
            many=True, allow_null=True, help_text="What the installation covers; null: unknown."
        )
        covered_error = serializers.CharField(allow_blank=True)

    @extend_schema(
        operation_id="github_app_get",
        tags=["integrations"],
        summary="A guru's GitHub App and the repositories its installation covers",
        responses={200: OutputSerializer, **errors(401, 403, 404)},
    )
    def get(self, request: Request, slug: str, integration_id: int) -> Response:
        integration = _github_integration(slug, integration_id)
        covered: list[dict[str, Any]] | None = None
        problem = ""
        try:
            covered = github_installation_repositories(app=integration.github_app)
        except DomainError as exc:
            problem = exc.msg
        body = dict(GitHubAppOutput(integration).data)
        body["covered"] = (
            CoveredRepository(covered, many=True).data if covered is not None else None
        )
        body["covered_error"] = problem
        return Response(body)

    @extend_schema(
        operation_id="github_app_update",
        tags=["integrations"],
        summary="Change a GitHub App's repositories, keys or secret",
        request=GitHubAppInput(partial=True),
        responses={200: GitHubAppOutput, **errors(400, 401, 403, 404, 409, 502)},
    )
    def patch(self, request: Request, slug: str, integration_id: int) -> Response:
        integration = _github_integration(slug, integration_id)
        data = GitHubAppInput(data=request.data, partial=True)
        data.is_valid(raise_exception=True)
        github_app_update(integration=integration, setup=_setup(data.validated_data))
        return Response(GitHubAppOutput(integration).data)


class GitHubAppWebhookApi(APIView):
    # GitHub signs its deliveries with the app's webhook secret: that is the only credential.
    authentication_classes: list[Any] = []
    permission_classes = [AllowAny]

    class OutputSerializer(serializers.Serializer):
        ok = serializers.BooleanField()
        answering = serializers.BooleanField(help_text="Whether a reply will be written.")

    @extend_schema(
        operation_id="github_app_webhook",
        tags=["integrations"],
        summary="GitHub App webhook (signed by GitHub)",
        description="Verifies X-Hub-Signature-256 with the webhook secret of the GitHub "
        "integration of the payload's installation and acknowledges at once: a mention in an "
        "issue or discussion is answered by a background task, each delivery id once.",
        auth=[],
        request={"application/json": dict},
        parameters=[
            OpenApiParameter("X-Hub-Signature-256", str, OpenApiParameter.HEADER, required=True),
            OpenApiParameter("X-GitHub-Event", str, OpenApiParameter.HEADER, required=True),
            OpenApiParameter("X-GitHub-Delivery", str, OpenApiParameter.HEADER, required=True),
        ],
        responses={200: OutputSerializer, **errors(400, 401)},
        examples=[OpenApiExample("taken", value={"ok": True, "answering": True})],
    )
    def post(self, request: Request) -> Response:
        signature = request.headers.get("X-Hub-Signature-256", "")
        if not signature:
            raise DomainError(ErrorCode.NOT_AUTHENTICATED, _UNSIGNED)
        body: bytes = request.body
        try:
            payload = json_loads_bounded(body)
        except ValueError as exc:
            raise DomainError(ErrorCode.MALFORMED_JSON, "The body is not valid JSON.") from exc
        if not isinstance(payload, dict):
            raise DomainError(ErrorCode.INVALID_INPUT, "Send a JSON object.")
        integration = github_integration_verified(payload=payload, body=body, signature=signature)
        if integration is None:
            raise DomainError(ErrorCode.NOT_AUTHENTICATED, _UNSIGNED)
        delivery = request.headers.get("X-GitHub-Delivery", "").strip()
        if not delivery or len(delivery) > 100:
            raise DomainError(
                ErrorCode.INVALID_INPUT, "Send the delivery's id in X-GitHub-Delivery."
            )
        answering = github_delivery_accept(
            integration=integration,
            delivery_id=delivery,
            event=request.headers.get("X-GitHub-Event", ""),
            payload=payload,
        )
        return Response({"ok": True, "answering": answering})

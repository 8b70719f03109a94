"""Slack's "Add to Slack": the install link for a guru (admins) and the OAuth redirect Slack sends
the browser back to (authenticated by the signed state it carries)."""

from typing import Any

from django.conf import settings
from django.http import HttpResponseRedirect
from django.urls import reverse
from drf_spectacular.utils import OpenApiParameter, OpenApiResponse, extend_schema
from rest_framework import serializers
from rest_framework.permissions import AllowAny
from rest_framework.request import Request
from rest_framework.response import Response
from rest_framework.views import APIView

from openguru.core.errors import DomainError, ErrorCode
from openguru.core.openapi import errors
from openguru.gurus.selectors import guru_get
from openguru.integrations.bots.slack_oauth import slack_install_complete, slack_install_url


def _redirect_uri(request: Request) -> str:
    """The callback URL Slack must send the browser back to; the same on both legs, as Slack
    requires. SLACK_REDIRECT_URI overrides it when a proxy hides the public address."""
    return settings.SLACK_REDIRECT_URI or request.build_absolute_uri(reverse("slack-oauth"))


class SlackInstallApi(APIView):
    class OutputSerializer(serializers.Serializer):
        url = serializers.URLField(help_text="Slack's consent page; valid for ten minutes.")

    @extend_schema(
        operation_id="slack_install_url",
        tags=["integrations"],
        summary="The 'Add to Slack' link that installs the Slack app for this guru",
        responses={200: OutputSerializer, **errors(401, 403, 404, 503)},
    )
    def get(self, request: Request, slug: str) -> Response:
        guru = guru_get(slug=slug)
        url = slack_install_url(guru=guru, redirect_uri=_redirect_uri(request))
        return Response(self.OutputSerializer({"url": url}).data)


class SlackOAuthApi(APIView):
    # Slack redirects the admin's browser here; the signed state is the credential.
    authentication_classes: list[Any] = []
    permission_classes = [AllowAny]

    @extend_schema(
        operation_id="slack_oauth_redirect",
        tags=["integrations"],
        summary="Slack's OAuth redirect: saves the workspace's bot token, then opens the console",
        parameters=[
            OpenApiParameter("code", str, description="Slack's one-time code."),
            OpenApiParameter("state", str, description="The signed state of the install link."),
            OpenApiParameter("error", str, description="Set by Slack when the admin cancelled."),
        ],
        responses={
            302: OpenApiResponse(description="Installed: to the guru's integrations page."),
            **errors(400, 404),
        },
    )
    def get(self, request: Request) -> HttpResponseRedirect:
        params = request.query_params
        if params.get("error"):
            raise DomainError(ErrorCode.INVALID_INPUT, "The install was cancelled in Slack.")
        if not params.get("code") or not params.get("state"):
            raise DomainError(ErrorCode.INVALID_INPUT, "Slack's redirect lacks its code or state.")
        install = slack_install_complete(
            code=params["code"], state=params["state"], redirect_uri=_redirect_uri(request)
        )
        slug = install.integration.guru.slug
        return HttpResponseRedirect(f"/console/gurus/{slug}/integrations?slack=installed")

"""Slack's OAuth install ("Add to Slack"): an admin is sent to Slack's consent page with a signed
state naming the guru; Slack sends the browser back with a code, which `oauth.v2.access` trades
for the workspace's bot token. The state is signed with Django's signer rather than kept in a
store: it carries the guru and the admin, expires after a few minutes and cannot be forged."""

from dataclasses import dataclass
from typing import Any

from django.conf import settings
from django.core import signing
from slack_sdk import WebClient
from slack_sdk.errors import SlackApiError
from slack_sdk.oauth import AuthorizeUrlGenerator

from openguru.core.errors import DomainError, ErrorCode
from openguru.gurus.models import Guru
from openguru.gurus.selectors import guru_get
from openguru.integrations.apikeys.services import admin_token_owner
from openguru.integrations.bots.services import (
    IntegrationSetup,
    integration_create,
    integration_update,
)
from openguru.integrations.models import Integration

_SALT = "openguru.slack-oauth"
STATE_MAX_AGE_SECONDS = 600


@dataclass(frozen=True)
class SlackInstall:
    integration: Integration
    created: bool


def _require_app() -> None:
    if not (settings.SLACK_CLIENT_ID and settings.SLACK_CLIENT_SECRET):
        raise DomainError(
            ErrorCode.NOT_CONFIGURED,
            "Slack's install button needs SLACK_CLIENT_ID and SLACK_CLIENT_SECRET (from the "
            "Slack app's Basic Information page); or paste a bot token and signing secret.",
        )
    if not settings.SLACK_SIGNING_SECRET:
        raise DomainError(
            ErrorCode.NOT_CONFIGURED,
            "Slack's install button needs SLACK_SIGNING_SECRET: it signs every installed "
            "workspace's events.",
        )


def slack_install_url(*, guru: Guru, redirect_uri: str) -> str:
    """Where to send an admin to install the Slack app for `guru`."""
    _require_app()
    state = signing.dumps({"guru": guru.slug}, salt=_SALT)
    generator = AuthorizeUrlGenerator(
        client_id=settings.SLACK_CLIENT_ID,
        redirect_uri=redirect_uri,
        scopes=settings.SLACK_BOT_SCOPES,
        authorization_url=settings.SLACK_AUTHORIZE_URL,
    )
    return generator.generate(state)


def _guru_from_state(state: str) -> Guru:
    try:
        payload = signing.loads(state, salt=_SALT, max_age=STATE_MAX_AGE_SECONDS)
    except signing.SignatureExpired as exc:
        raise DomainError(
            ErrorCode.INVALID_INPUT, "This install link has expired: start again from the console."
        ) from exc
    except signing.BadSignature as exc:
        raise DomainError(
            ErrorCode.INVALID_INPUT, "This install link was not issued here."
        ) from exc
    return guru_get(slug=str(payload.get("guru", "")))


def _access(code: str, redirect_uri: str) -> dict[str, Any]:
    client = WebClient(base_url=settings.SLACK_API_URL)
    try:
        response = client.oauth_v2_access(
            client_id=settings.SLACK_CLIENT_ID,
            client_secret=settings.SLACK_CLIENT_SECRET,
            code=code,
            redirect_uri=redirect_uri,
        )
    except SlackApiError as exc:
        reason = exc.response.get("error", "refused") if exc.response else "refused"
        raise DomainError(
            ErrorCode.INVALID_INPUT, f"Slack did not accept the install ({reason}): try again."
        ) from exc
    data = dict(response.data) if isinstance(response.data, dict) else {}
    if not data.get("access_token") or not (data.get("team") or {}).get("id"):
        raise DomainError(ErrorCode.PROVIDER_ERROR, "Slack's answer had no bot token.")
    return data


def slack_install_complete(*, code: str, state: str, redirect_uri: str) -> SlackInstall:
    """Trade Slack's code for the workspace's bot token and save it as the guru's integration
    (a reinstall in the same workspace refreshes the token and keeps the channel settings)."""
    _require_app()
    guru = _guru_from_state(state)
    data = _access(code, redirect_uri)
    team = data["team"]
    setup = IntegrationSetup(
        external_id=str(team["id"]),
        workspace_name=str(team.get("name") or ""),
        bot_token=str(data["access_token"]),
        signing_secret=settings.SLACK_SIGNING_SECRET,
    )
    existing = Integration.objects.filter(
        guru=guru, type=Integration.Type.SLACK, external_id=setup.external_id
    ).first()
    if existing is not None:
        return SlackInstall(integration_update(integration=existing, setup=setup), created=False)
    integration = integration_create(
        guru=guru, type=Integration.Type.SLACK, setup=setup, owner=admin_token_owner()
    )
    return SlackInstall(integration, created=True)

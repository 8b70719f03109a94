"""Does a bot's stored token work? One harmless call to the platform: Slack's `auth.test`,
Discord's `GET /users/@me`, for Teams a token for the app id and secret. The answer says what
an admin can act on; the token never shows."""

from dataclasses import dataclass

import httpx
from django.conf import settings
from slack_sdk.errors import SlackApiError, SlackClientError

from openguru.core.errors import DomainError
from openguru.integrations.bots.slack_answers import slack_client
from openguru.integrations.bots.teams_auth import teams_bot_token
from openguru.integrations.crypto import secret_decrypt
from openguru.integrations.models import Integration

CHECK_TIMEOUT_SECONDS = 10.0


@dataclass(frozen=True)
class ConnectionCheck:
    ok: bool
    detail: str


def _slack(integration: Integration) -> ConnectionCheck:
    client = slack_client(integration)
    client.timeout = int(CHECK_TIMEOUT_SECONDS)
    try:
        found = client.auth_test()
    except SlackApiError as exc:
        return ConnectionCheck(False, f"Slack refused the bot token: {exc.response.get('error')}.")
    except (SlackClientError, OSError) as exc:
        return ConnectionCheck(False, f"Slack could not be reached: {type(exc).__name__}.")
    team, user = found.get("team") or "the workspace", found.get("user") or "the bot"
    return ConnectionCheck(True, f"Connected to {team} as {user}.")


def _discord(token: str) -> ConnectionCheck:
    url = settings.DISCORD_API_URL.rstrip("/") + "/users/@me"
    try:
        response = httpx.get(
            url, headers={"Authorization": f"Bot {token}"}, timeout=CHECK_TIMEOUT_SECONDS
        )
    except httpx.HTTPError as exc:
        return ConnectionCheck(False, f"Discord could not be reached: {type(exc).__name__}.")
    if response.status_code == 401:
        return ConnectionCheck(False, "Discord refused the bot token (401).")
    if response.status_code != 200:
        return ConnectionCheck(False, f"Discord answered {response.status_code}.")
    try:
        name = str(response.json().get("username") or "the bot")
    except ValueError:
        return ConnectionCheck(False, "Discord's answer was not JSON.")
    return ConnectionCheck(True, f"Signed in to Discord as {name}.")


def _teams(integration: Integration) -> ConnectionCheck:
    try:
        teams_bot_token(integration=integration)
    except DomainError as exc:
        return ConnectionCheck(False, exc.msg)
    return ConnectionCheck(True, f"Microsoft issued a token for app {integration.external_id}.")


def integration_connection_check(*, integration: Integration) -> ConnectionCheck:
    """Blocking (one HTTP call, at most CHECK_TIMEOUT_SECONDS)."""
    token = secret_decrypt(integration.access_token)
    if not token:
        # None stored, or stored under another encryption key (INTEGRATION_ENCRYPTION_KEY).
        return ConnectionCheck(False, "No readable bot token is stored: set it again.")
    if integration.type == Integration.Type.SLACK:
        return _slack(integration)
    if integration.type == Integration.Type.TEAMS:
        return _teams(integration)
    return _discord(token)

"""Slack's Events API: which integration a signed request is for, and which events to answer.
Events are acknowledged at once; the answer is written by a Celery task (Slack wants a reply
within 3 seconds and retries otherwise)."""

from collections.abc import Mapping
from functools import partial
from typing import Any

from django.db import transaction
from slack_sdk.signature import SignatureVerifier

from openguru.integrations.bots.routing import Route, answers_outside_home, slack_event_route
from openguru.integrations.bots.selectors import slack_integrations_for_team
from openguru.integrations.bots.services import slack_event_take
from openguru.integrations.bots.slack_tasks import slack_event_send
from openguru.integrations.crypto import secret_decrypt
from openguru.integrations.models import Integration


def slack_integration_verified(
    *, team_id: str, body: bytes, headers: Mapping[str, str]
) -> Integration | None:
    """The integration whose signing secret signed this request (v0 HMAC-SHA256 of
    `v0:{timestamp}:{body}`, at most 5 minutes old), or None. Several gurus may each have a
    Slack app in one workspace: the secret that verifies names the integration. A timestamp
    that is not a whole number of seconds verifies nothing (the verifier would raise on it)."""
    timestamp = str(headers.get("X-Slack-Request-Timestamp") or "").strip()
    if not timestamp.isascii() or not timestamp.isdigit():
        return None
    for integration in slack_integrations_for_team(team_id=team_id):
        verifier = SignatureVerifier(secret_decrypt(integration.signing_secret))
        if verifier.is_valid_request(body, dict(headers)):
            return integration
    return None


def _bot_user_id(payload: dict[str, Any]) -> str:
    for authorization in payload.get("authorizations") or []:
        if isinstance(authorization, dict) and authorization.get("is_bot"):
            return str(authorization.get("user_id", ""))
    return ""


def slack_event_accept(*, integration: Integration, payload: dict[str, Any]) -> bool:
    """Take an event for answering unless it is to be ignored or was taken before (Slack
    retries, replays). True when a task will handle it."""
    event = payload.get("event")
    event_id = payload.get("event_id")
    if not isinstance(event, dict) or not isinstance(event_id, str) or not event_id:
        return False
    if payload.get("team_id") != integration.external_id and not answers_outside_home(integration):
        return False
    bot_user_id = _bot_user_id(payload)
    if slack_event_route(integration=integration, event=event, bot_user_id=bot_user_id) == (
        Route.IGNORE
    ):
        return False
    taken = slack_event_take(
        integration=integration, event_id=event_id, event=event, bot_user_id=bot_user_id
    )
    if taken is None:
        return False
    # A broker that is down costs Slack no slow or failed acknowledgement (its retry would find
    # the event taken): the event stays unsent, and beat's sweep sends it once the broker is back.
    transaction.on_commit(partial(slack_event_send, slack_event_id=taken.pk))
    return True

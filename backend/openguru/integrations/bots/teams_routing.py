"""Which Teams messages the bot answers, and where: the thread (a channel's reply chain) and
the channel the allow-list names; the question without the mention that addressed the bot."""

import html
import re
from enum import StrEnum
from typing import Any

from openguru.integrations.bots.routing import answers_outside_home, channel_mode
from openguru.integrations.bots.threads import BotThread
from openguru.integrations.models import Integration

TEAMS = "msteams"
_AT = re.compile(r"<at\b[^>]*>.*?</at>", re.IGNORECASE | re.DOTALL)
_TAG = re.compile(r"<[^>]+>")


class TeamsRoute(StrEnum):
    IGNORE = "ignore"
    NOT_ALLOWED = "not_allowed"
    ANSWER = "answer"


def teams_field(activity: dict[str, Any], *path: str) -> str:
    found: Any = activity
    for key in path:
        found = found.get(key) if isinstance(found, dict) else None
    return str(found) if found else ""


def teams_thread(integration: Integration, activity: dict[str, Any]) -> BotThread:
    """A channel's reply chain is its own conversation (`…;messageid=<root>`), so the
    conversation is the thread; the channel (or the chat) is what the allow-list names."""
    conversation = teams_field(activity, "conversation", "id")
    channel = teams_field(activity, "channelData", "channel", "id") or conversation
    return BotThread(integration, channel, conversation)


def _mentioned(activity: dict[str, Any]) -> bool:
    bot = teams_field(activity, "recipient", "id")
    return any(
        isinstance(entity, dict)
        and entity.get("type") == "mention"
        and teams_field(entity, "mentioned", "id") == bot
        for entity in activity.get("entities") or []
    )


def teams_route(*, integration: Integration, activity: dict[str, Any]) -> TeamsRoute:
    sender = teams_field(activity, "from", "id")
    if activity.get("type") != "message" or not sender:
        return TeamsRoute.IGNORE
    if sender == teams_field(activity, "recipient", "id") or activity.get("channelId") != TEAMS:
        return TeamsRoute.IGNORE
    tenant = teams_field(activity, "channelData", "tenant", "id") or teams_field(
        activity, "conversation", "tenantId"
    )
    # A private guru's bot answers its own tenant only: without one set, no tenant is home.
    home = bool(integration.tenant_id) and tenant == integration.tenant_id
    if not home and not answers_outside_home(integration):
        return TeamsRoute.IGNORE
    if teams_field(activity, "conversation", "conversationType") == "personal":
        return TeamsRoute.ANSWER if integration.dms_enabled else TeamsRoute.IGNORE
    # No channels listed: every channel and chat the app is added to (adding it is the choice).
    mode = channel_mode(integration, teams_thread(integration, activity).channel_id)
    if _mentioned(activity):
        allowed = mode is not None or not integration.channels
        return TeamsRoute.ANSWER if allowed else TeamsRoute.NOT_ALLOWED
    return TeamsRoute.ANSWER if mode == "all" else TeamsRoute.IGNORE


def teams_question_text(activity: dict[str, Any]) -> str:
    """The question in a message: without the mention of the bot, and as text (Teams sends
    channel messages as HTML)."""
    text = _TAG.sub(" ", _AT.sub(" ", str(activity.get("text") or "")))
    return " ".join(html.unescape(text).split())

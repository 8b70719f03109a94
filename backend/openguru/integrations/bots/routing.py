"""Which messages a bot answers: the admins' channel allow-list, each channel's mode."""

from enum import StrEnum
from typing import Any

from openguru.accounts.access import guru_is_public
from openguru.integrations.bots.selectors import thread_known
from openguru.integrations.models import Integration


class Route(StrEnum):
    IGNORE = "ignore"
    NOT_ALLOWED = "not_allowed"  # the bot was asked in a channel it may not answer in
    ANSWER = "answer"


def answers_outside_home(integration: Integration) -> bool:
    """Whether the bot may answer outside its own workspace or server (a Discord DM, a Slack
    event of another team). A private guru's bot answers only at home: the people there are
    whom its admins chose, anyone else is not."""
    return guru_is_public(integration.guru)


def channel_mode(integration: Integration, channel_id: str) -> str | None:
    """ "mention" or "all" for an allowed channel, None for any other."""
    for channel in integration.channels or []:
        if channel.get("id") == channel_id:
            return str(channel.get("mode") or "mention")
    return None


def slack_event_route(
    *, integration: Integration, event: dict[str, Any], bot_user_id: str
) -> Route:
    # Bots (this one included) and edits, joins, deletions: never answered, or bots would
    # answer each other forever.
    user = event.get("user")
    if event.get("bot_id") or event.get("subtype") or not user or user == bot_user_id:
        return Route.IGNORE
    channel = str(event.get("channel", ""))
    mode = channel_mode(integration, channel)
    if event.get("type") == "app_mention":
        return Route.ANSWER if mode else Route.NOT_ALLOWED
    if event.get("type") != "message":
        return Route.IGNORE
    if event.get("channel_type") == "im":
        return Route.ANSWER if integration.dms_enabled else Route.IGNORE
    # A message that mentions the bot also arrives as an app_mention: that one is answered.
    if mode is None or (bool(bot_user_id) and f"<@{bot_user_id}>" in str(event.get("text", ""))):
        return Route.IGNORE
    if mode == "all":
        return Route.ANSWER
    # In a thread the bot answers in, follow-ups need no mention.
    thread_ts = event.get("thread_ts")
    known = bool(thread_ts) and thread_known(
        integration=integration, channel_id=channel, thread_id=str(thread_ts)
    )
    return Route.ANSWER if known else Route.IGNORE

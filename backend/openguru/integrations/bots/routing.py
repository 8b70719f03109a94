"""Which messages a bot answers: the admins' channel allow-list, each channel's mode."""

from enum import StrEnum

from openguru.integrations.models import Integration


class Route(StrEnum):
    IGNORE = "ignore"
    NOT_ALLOWED = "not_allowed"  # the bot was asked in a channel it may not answer in
    ANSWER = "answer"


def channel_mode(integration: Integration, channel_id: str) -> str | None:
    """ "mention" or "all" for an allowed channel, None for any other."""
    for channel in integration.channels or []:
        if channel.get("id") == channel_id:
            return str(channel.get("mode") or "mention")
    return None

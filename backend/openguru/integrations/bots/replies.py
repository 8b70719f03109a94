"""What a bot reads in a message: the question, without the mentions that addressed the bot.
What it writes back is the bots' encoder's (`answers/channels/bots.py`)."""

import re

# Slack `<@U123>`, Discord `<@123>` / `<@!123>`: the mention that addressed the bot.
_MENTION = re.compile(r"<@!?[\w]+>")


def question_text(text: str) -> str:
    """The question in a message, without the mentions that addressed the bot."""
    return " ".join(_MENTION.sub(" ", text).split())

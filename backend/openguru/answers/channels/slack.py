"""The Slack bot's text: markdown (what the engine writes) in Slack's mrkdwn, code left as it
is; the whole answer with its sources as Slack links."""

import re

from openguru.answers.channels.bots import BotReply, reply_markdown

_FENCE = re.compile(r"(```.*?(?:```|\Z))", re.DOTALL)
_INLINE_CODE = re.compile(r"(`[^`\n]+`)")
_LINK = re.compile(r"\[([^\]\n]+)\]\((\S+?)\)")
_ITALIC = re.compile(r"(?<![*\w])\*(?=[^*\s])([^*\n]+?)(?<=\S)\*(?![*\w])")
_BOLD = re.compile(r"(\*\*|__)(?=\S)(.+?)(?<=\S)\1")
_HEADING = re.compile(r"^#{1,6}\s+(.+?)\s*#*\s*$", re.MULTILINE)
_BULLET = re.compile(r"^(\s*)[-*+]\s+", re.MULTILINE)
_STRIKE = re.compile(r"~~(.+?)~~")


def _escape(text: str) -> str:
    # Slack reads &, < and > as markup: what the text means by them must be escaped.
    return text.replace("&", "&amp;").replace("<", "&lt;").replace(">", "&gt;")


def _prose(text: str) -> str:
    text = _escape(text)
    text = _LINK.sub(lambda m: f"<{m.group(2)}|{m.group(1)}>", text)
    text = _ITALIC.sub(r"_\1_", text)  # before bold: Slack's bold is markdown's italic
    text = _HEADING.sub(lambda m: f"*{m.group(1).strip('*')}*", text)
    text = _BOLD.sub(lambda m: f"*{m.group(2)}*", text)
    text = _STRIKE.sub(r"~\1~", text)
    return _BULLET.sub(lambda m: f"{m.group(1)}• ", text)


def _fence(block: str) -> str:
    # Slack shows no language tag: "```python" would print "python" as the first code line.
    return re.sub(r"^```[\w+-]*\n", "```\n", block)


def markdown_to_mrkdwn(markdown: str) -> str:
    parts = []
    for block in _FENCE.split(markdown):
        if block.startswith("```"):
            parts.append(_fence(block))
            continue
        for piece in _INLINE_CODE.split(block):
            parts.append(piece if piece.startswith("`") else _prose(piece))
    return "".join(parts)


def _slack_link(title: str, url: str) -> str:
    return f"[{title}]({url})"  # the mrkdwn conversion makes it <url|title>


def slack_progress_text(markdown: str) -> str:
    """The answer so far, marked as still being written."""
    return markdown_to_mrkdwn(markdown) + " …"


def slack_reply_text(reply: BotReply) -> str:
    return markdown_to_mrkdwn(reply_markdown(reply, link=_slack_link))

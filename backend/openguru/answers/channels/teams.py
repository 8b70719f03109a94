"""The Teams bot's messages: the answer as markdown text (Teams renders a subset of it), its
sources and trust score as an Adaptive Card. Teams refuses a message over its size limit
(documented as about 100 KB of the whole activity as UTF-16, 80 KB recommended; older pages
said 40 KB) with 413 `MessageSizeTooBig`: an answer is split into messages of at most
`TEAMS_TEXT_LIMIT` characters, which stays under 40 KB with the card, and the card comes
with the last one."""

from typing import Any

from openguru.answers.channels.bots import BotReply
from openguru.answers.channels.discord import split_message

TEAMS_TEXT_LIMIT = 12_000  # characters: 24 KB as UTF-16 for any text of the Basic plane
CARD_SOURCES = 10  # the card lists at most this many sources
_TITLE_MAX = 200
ADAPTIVE_CARD = "application/vnd.microsoft.card.adaptive"


def teams_progress_text(markdown: str) -> str:
    """The answer so far, marked as still being written: its first message only streams."""
    return split_message(markdown + " …", TEAMS_TEXT_LIMIT)[0]


def teams_reply_parts(reply: BotReply) -> list[str]:
    """The answer in messages Teams takes; the sources go in the card, not the text."""
    return split_message(reply.text.rstrip(), TEAMS_TEXT_LIMIT) or [reply.text or "…"]


def _escaped(title: str) -> str:
    # A title is shown as a markdown link's text: brackets would end it early.
    return title[:_TITLE_MAX].replace("[", "(").replace("]", ")")


def _numbered(n: int, reference: dict[str, Any]) -> str:
    title = _escaped(reference.get("title") or reference.get("link") or "")
    link = reference.get("link")
    return f"[{n}] [{title}]({link})" if link else f"[{n}] {title}"


def teams_sources_card(reply: BotReply) -> dict[str, Any] | None:
    """The answer's sources and trust score as an Adaptive Card attachment; None for a
    refusal or a failure (they have neither)."""
    if reply.refused or reply.failed:
        return None
    body: list[dict[str, Any]] = []
    # Numbered as the answer's inline citations number them: the n-th is cited as [n].
    references = reply.references[:CARD_SOURCES]
    if references:
        body.append({"type": "TextBlock", "text": "Sources", "weight": "Bolder"})
        body.extend(
            {"type": "TextBlock", "text": _numbered(n, r), "wrap": True, "spacing": "Small"}
            for n, r in enumerate(references, start=1)
        )
    body.append(
        {
            "type": "TextBlock",
            "text": f"Trust score: {round(reply.trust_score * 100)}%",
            "isSubtle": True,
            "spacing": "Medium",
        }
    )
    return {
        "contentType": ADAPTIVE_CARD,
        "content": {
            "type": "AdaptiveCard",
            "$schema": "http://adaptivecards.io/schemas/adaptive-card.json",
            "version": "1.5",
            "body": body,
        },
    }

"""A chat bot's answer (Slack, Discord): the engine's events streamed into one message, edited
at most once per interval (both platforms rate-limit edits), then the whole answer with its
sources and trust score. Platform-neutral: it writes markdown, which `slack.py` and
`discord.py` turn into what each platform shows."""

import time
from collections.abc import AsyncGenerator, Awaitable, Callable
from dataclasses import dataclass, field
from typing import Any

from openguru.answers.engine.events import AnswerEvent

THINKING = "Thinking…"
FAILED = "Sorry, I could not answer this right now. Please try again in a moment."

Progress = Callable[[str], Awaitable[None]]


@dataclass
class BotReply:
    text: str = ""  # markdown
    refused: bool = False
    failed: bool = False
    question_id: int | None = None
    references: list[dict[str, Any]] = field(default_factory=list)
    trust_score: float = 0.0


class EditThrottle:
    """Says when a message may be edited again: at most once per `interval` seconds, counted
    from its creation (the "Thinking…" message was just posted)."""

    def __init__(self, interval: float, clock: Callable[[], float] = time.monotonic) -> None:
        self.interval = interval
        self.clock = clock
        self.last = clock()

    def due(self) -> bool:
        now = self.clock()
        if now - self.last < self.interval:
            return False
        self.last = now
        return True


async def reply_stream(
    events: AsyncGenerator[AnswerEvent, None], *, progress: Progress, interval: float
) -> BotReply:
    """`progress` gets the answer so far, throttled to one call per `interval`."""
    throttle = EditThrottle(interval)
    parts: list[str] = []
    refused = False
    async for event in events:
        if event.name == "meta":
            refused = bool(event.data.get("refused"))
        elif event.name == "delta":
            parts.append(event.data["text"])
            if not refused and throttle.due():
                await progress("".join(parts))
        elif event.name == "error":
            return BotReply(text=FAILED, failed=True)
        elif event.name == "done":
            data = event.data
            return BotReply(
                text=data.get("content") or "".join(parts),
                refused=bool(data.get("refused")),
                question_id=data.get("id"),
                references=list(data.get("references") or []),
                trust_score=float(data.get("trust_score") or 0.0),
            )
    return BotReply(text=FAILED, failed=True)


def reply_markdown(reply: BotReply, *, link: Callable[[str, str], str]) -> str:
    """The whole answer; an answer (not a refusal) ends with its sources and trust score.
    `link(title, url)` writes a link the way the platform shows it best."""
    if reply.refused or reply.failed:
        return reply.text
    lines = [reply.text.rstrip(), ""]
    # Numbered as the answer's inline citations number them: the n-th is cited as [n].
    sources = [
        f"[{n}] " + (link(r.get("title") or r["link"], r["link"]) if r.get("link") else r["title"])
        for n, r in enumerate(reply.references, start=1)
    ]
    if sources:
        lines.append("**Sources:** " + " · ".join(sources))
    lines.append(f"**Trust score:** {round(reply.trust_score * 100)}%")
    return "\n".join(lines)

"""The Discord bot's messages. Discord takes at most 2,000 characters a message: longer
answers are split, at line ends where possible, never inside a link, and a code block cut in
two is closed and reopened."""

import re

from openguru.answers.channels.bots import BotReply, reply_markdown

DISCORD_LIMIT = 2000
_FENCE = re.compile(r"^\s*```")
_CLOSE = "\n```"
_OPENER_MAX = 20  # "```python" and the like; a longer opener is reopened as plain "```"
# Markdown links (Discord's `[t](<u>)` too), `<url>` and bare URLs: split around, never inside.
_LINK = re.compile(r"\[[^\]\n]*\]\(<?[^)\s]*>?\)|<https?://[^>\s]+>|https?://\S+")


def discord_link(title: str, url: str) -> str:
    return f"[{title}](<{url}>)"  # the angle brackets keep Discord from embedding a preview


def _cut(line: str, budget: int) -> int:
    """Where to cut a line longer than `budget`: the last space before it outside a link,
    else just before a link that crosses it, else at the budget."""
    spans = [m.span() for m in _LINK.finditer(line)]
    for index in range(budget, 0, -1):
        if line[index].isspace() and not any(s < index < e for s, e in spans):
            return index
    for start, end in spans:
        if 0 < start < budget < end:
            return start
    return budget


def _pieces(line: str, budget: int) -> list[str]:
    pieces = []
    while len(line) > budget:
        cut = _cut(line, budget)
        pieces.append(line[:cut].rstrip())
        line = line[cut:].lstrip()
    return [*pieces, line]


def split_message(text: str, limit: int = DISCORD_LIMIT) -> list[str]:
    """`text` in messages of at most `limit` characters."""
    budget = limit - len(_CLOSE) - _OPENER_MAX - 1  # room to close and reopen a code block
    parts: list[str] = []
    lines: list[str] = []
    fence: str | None = None  # the opening line of the code block we are in

    def flush() -> None:
        nonlocal lines
        body = "\n".join(lines).rstrip() + (_CLOSE if fence else "")
        if body.strip():
            parts.append(body)
        lines = [fence] if fence else []

    for raw in text.split("\n"):
        for line in _pieces(raw, budget):
            if lines and len("\n".join([*lines, line])) > limit - len(_CLOSE):
                flush()
            lines.append(line)
            if _FENCE.match(line):
                opener = line.strip()
                fence = None if fence else (opener if len(opener) <= _OPENER_MAX else "```")
    rest = "\n".join(lines).rstrip()
    if rest.strip():
        parts.append(rest)
    return parts


def discord_progress_text(markdown: str) -> str:
    """The answer so far, marked as still being written: its first message only streams."""
    return split_message(markdown + " …")[0]


def discord_reply_parts(reply: BotReply) -> list[str]:
    return split_message(reply_markdown(reply, link=discord_link))

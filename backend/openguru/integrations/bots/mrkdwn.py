"""Markdown (what the engine writes) to Slack's mrkdwn. Code is left as it is."""

import re

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

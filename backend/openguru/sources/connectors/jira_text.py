"""Jira's rich text as plain text: Cloud (REST v3) sends descriptions and comments as Atlassian
Document Format (a JSON tree of nodes), Data Center (REST v2) as wiki markup strings. Both become
text a person would read: headings, list items and table rows on their own lines, link targets
kept beside their words, code kept verbatim, images and markup characters dropped."""

import re
from collections.abc import Mapping
from datetime import UTC, datetime
from typing import Any

# --- Atlassian Document Format --------------------------------------------------------------------

_BLOCKS = {
    "paragraph",
    "heading",
    "blockquote",
    "codeBlock",
    "rule",
    "panel",
    "expand",
    "nestedExpand",
    "table",
    "bulletList",
    "orderedList",
    "taskList",
    "decisionList",
    "mediaSingle",
    "mediaGroup",
    "blockCard",
    "embedCard",
}


def adf_text(node: Any) -> str:
    """The text of an ADF document (or of a plain string, which older fields still hold)."""
    if isinstance(node, str):
        return node.strip()
    if not isinstance(node, Mapping):
        return ""
    text = _block(node, depth=0)
    return re.sub(r"\n{3,}", "\n\n", text).strip()


def _children(node: Mapping[str, Any], *, depth: int) -> str:
    parts = []
    for child in node.get("content") or []:
        if isinstance(child, Mapping):
            block = child.get("type") in _BLOCKS
            parts.append(_block(child, depth=depth) if block else _inline(child, depth=depth))
    return "".join(parts)


def _block(node: Mapping[str, Any], *, depth: int) -> str:
    kind = node.get("type")
    attrs = node.get("attrs") or {}
    if kind == "heading":
        level = int(attrs.get("level") or 1)
        return f"{'#' * level} {_children(node, depth=depth).strip()}\n\n"
    if kind == "codeBlock":
        code = "".join(_inline(child, depth=depth) for child in node.get("content") or [])
        return f"```\n{code}\n```\n\n"
    if kind == "rule":
        return "\n"
    if kind == "blockquote":
        quoted = _children(node, depth=depth).strip().splitlines()
        return "\n".join(f"> {line}" if line else ">" for line in quoted) + "\n\n"
    if kind in ("bulletList", "orderedList", "taskList", "decisionList"):
        return _list(node, depth=depth) + ("\n" if depth == 0 else "")
    if kind == "table":
        return _table(node, depth=depth) + "\n"
    if kind in ("expand", "nestedExpand") and attrs.get("title"):
        return f"{attrs['title']}\n{_children(node, depth=depth)}"
    if kind in ("blockCard", "embedCard"):
        return f"{attrs.get('url', '')}\n\n"
    if kind in ("mediaSingle", "mediaGroup"):
        return ""  # attachments: nothing to read here
    body = _children(node, depth=depth)
    return f"{body.strip()}\n\n" if body.strip() else ""


def _list(node: Mapping[str, Any], *, depth: int) -> str:
    ordered = node.get("type") == "orderedList"
    start = int((node.get("attrs") or {}).get("order") or 1)
    lines = []
    for number, item in enumerate(node.get("content") or [], start=start):
        if not isinstance(item, Mapping):
            continue
        mark = f"{number}." if ordered else "-"
        if item.get("type") == "taskItem":
            done = (item.get("attrs") or {}).get("state") == "DONE"
            mark = "- [x]" if done else "- [ ]"
        inner = re.sub(r"\n{2,}", "\n", _children(item, depth=depth + 1).strip())
        lines.append(f"{'  ' * depth}{mark} {inner}")
    return "\n".join(lines) + "\n"


def _table(node: Mapping[str, Any], *, depth: int) -> str:
    rows = []
    for row in node.get("content") or []:
        if isinstance(row, Mapping):
            cells = [
                " ".join(_children(cell, depth=depth).split())
                for cell in row.get("content") or []
                if isinstance(cell, Mapping)
            ]
            rows.append(" | ".join(cells))
    return "\n".join(rows) + "\n"


def _inline(node: Any, *, depth: int) -> str:
    if not isinstance(node, Mapping):
        return ""
    kind = node.get("type")
    attrs = node.get("attrs") or {}
    if kind == "text":
        return _marked(str(node.get("text") or ""), node.get("marks") or [])
    if kind == "hardBreak":
        return "\n"
    if kind == "mention":
        return str(attrs.get("text") or "@someone")
    if kind == "emoji":
        return str(attrs.get("text") or attrs.get("shortName") or "")
    if kind == "inlineCard":
        return str(attrs.get("url") or "")
    if kind == "status":
        return f"[{attrs.get('text', '')}]"
    if kind == "date":
        return _date(attrs.get("timestamp"))
    if kind in _BLOCKS:
        return _block(node, depth=depth)
    return _children(node, depth=depth)  # a kind not known here: its words still count


def _marked(text: str, marks: list[Any]) -> str:
    for mark in marks:
        if isinstance(mark, Mapping) and mark.get("type") == "link":
            href = str((mark.get("attrs") or {}).get("href") or "")
            if href and href != text:
                return f"{text} ({href})"
    return text


def _date(timestamp: Any) -> str:
    try:
        return datetime.fromtimestamp(int(str(timestamp)) / 1000, tz=UTC).strftime("%Y-%m-%d")
    except (TypeError, ValueError, OverflowError):
        return ""


# --- wiki markup (Data Center) --------------------------------------------------------------------

_VERBATIM = re.compile(r"\{(code|noformat)(?::[^}]*)?\}(.*?)\{\1\}", re.DOTALL)
_WRAPPERS = re.compile(r"\{(?:quote|panel|color|section|column)(?::[^}]*)?\}")
_HEADING = re.compile(r"^h([1-6])\.\s*", re.MULTILINE)
_QUOTE_LINE = re.compile(r"^bq\.\s*", re.MULTILINE)
_LIST = re.compile(r"^([*#-]+)\s+", re.MULTILINE)
_TABLE_CELLS = re.compile(r"\|\|?")
_IMAGE = re.compile(r"!(?=\S)[^!\n]+?!")
_LINK = re.compile(r"\[([^\[\]|\n]*)\|([^\[\]\n]+)\]")
_BARE_LINK = re.compile(r"\[((?:https?|mailto):[^\[\]\n]+)\]")
_MENTION = re.compile(r"\[~(?:accountid:)?([^\]\n]+)\]")
_MONOSPACE = re.compile(r"\{\{(.*?)\}\}")
_EMPHASIS = [
    re.compile(rf"(?<![\w{m}]){re.escape(m)}(?=\S)(.+?)(?<=\S){re.escape(m)}(?![\w{m}])")
    for m in ("*", "_", "+", "^", "~", "-")
] + [re.compile(r"\?\?(.+?)\?\?")]


def wiki_text(markup: Any) -> str:
    """Wiki markup as plain text; code and noformat blocks are kept as they are."""
    if not isinstance(markup, str):
        return adf_text(markup)
    parts: list[str] = []
    position = 0
    for block in _VERBATIM.finditer(markup):
        parts.append(_wiki_plain(markup[position : block.start()]))
        parts.append("\n```\n" + block.group(2).strip("\n") + "\n```\n")
        position = block.end()
    parts.append(_wiki_plain(markup[position:]))
    return re.sub(r"\n{3,}", "\n\n", "".join(parts)).strip()


def _wiki_plain(text: str) -> str:
    text = _WRAPPERS.sub("", text).replace("\\\\", "\n")
    text = re.sub(r"^-{4,}\s*$", "", text, flags=re.MULTILINE)
    text = _LIST.sub(lambda m: "  " * (len(m.group(1)) - 1) + "- ", text)
    text = _HEADING.sub(lambda m: "#" * int(m.group(1)) + " ", text)  # after lists: "#" is one
    text = _QUOTE_LINE.sub("> ", text)
    text = "\n".join(_table_row(line) for line in text.split("\n"))
    text = _IMAGE.sub("", text)
    text = _MENTION.sub(r"@\1", text)
    text = _LINK.sub(lambda m: f"{m.group(1)} ({m.group(2)})" if m.group(1) else m.group(2), text)
    text = _BARE_LINK.sub(r"\1", text)
    text = _MONOSPACE.sub(r"\1", text)
    for pattern in _EMPHASIS:
        text = pattern.sub(r"\1", text)
    return text


def _table_row(line: str) -> str:
    stripped = line.strip()
    if not stripped.startswith("|"):
        return line
    cells = [cell.strip() for cell in _TABLE_CELLS.split(stripped)]
    return " | ".join(cell for cell in cells if cell)

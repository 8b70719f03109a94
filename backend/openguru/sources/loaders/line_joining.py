"""Text wrapped for a page (a PDF's extracted text, hard-wrapped plain text or Markdown) joined
back into paragraphs: a word hyphenated at a line's end is mended ("configu-\\nration" →
"configuration") and a line break inside a sentence becomes a space. Headings, list items,
table rows, quotes and fences keep their own lines, so they are never run into a sentence."""

import re

_PARAGRAPH_BREAK = re.compile(r"\n[ \t]*\n")
_HYPHENATED = re.compile(r"(?<=[A-Za-z])[-\u00ad]$")
_LIST_ITEM = re.compile(r"^([-*+•▪◦‣\u2013]|\d{1,3}[.)]|[a-z][.)])\s")
_OWN_LINE = ("#", "|", "```", ">")  # Markdown that is never part of a wrapped sentence
_SENTENCE_END = (".", "!", "?", ":", ";", ",", '"', "”", "'", ")")
MAX_HEADING_WORDS = 10


def lines_joined(text: str) -> str:
    """Each paragraph's wrapped lines joined; paragraphs (blank lines) stay apart."""
    return "\n\n".join(_paragraph_joined(p) for p in _PARAGRAPH_BREAK.split(text))


def heading_like(line: str) -> bool:
    """A line standing alone that reads as a title: a Markdown heading, or a few words that
    end with no punctuation and are not a list item ("Configuration", "2.1 Install")."""
    line = line.strip()
    if line.startswith("#"):
        return True
    return (
        bool(line)
        and not _LIST_ITEM.match(line)
        and len(line.split()) <= MAX_HEADING_WORDS
        and not line.endswith(_SENTENCE_END)
    )


def _paragraph_joined(paragraph: str) -> str:
    lines: list[str] = []
    for raw in paragraph.split("\n"):
        line = raw.strip()
        if not line:
            continue
        if lines and _continues(lines[-1], line):
            previous = lines[-1]
            if _HYPHENATED.search(previous):
                # "configu-" + "ration" is one word; "Python-" + "3.10" keeps its hyphen
                lines[-1] = (previous[:-1] if line[0].islower() else previous) + line
            else:
                lines[-1] = f"{previous} {line}"
        else:
            lines.append(line)
    return "\n".join(lines)


def _continues(previous: str, line: str) -> bool:
    """`line` carries on the sentence `previous` broke off: not a structure line of its own,
    and not the first line after a title (a title is followed by a capital or a digit)."""
    if line.startswith(_OWN_LINE) or previous.startswith(_OWN_LINE) or _LIST_ITEM.match(line):
        return False
    return line[0].islower() or bool(_HYPHENATED.search(previous)) or not heading_like(previous)

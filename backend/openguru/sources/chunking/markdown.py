"""Markdown (and reStructuredText) into sections: ATX, Setext and RST-underlined headings, with
GitHub-style anchors; fenced code is never mistaken for a heading."""

import re

from openguru.sources.anchors import github_slug
from openguru.sources.chunking.base import MAX_HEADING_CHARS, WHITESPACE, Draft, Limits
from openguru.sources.chunking.sections import Section, section_drafts
from openguru.sources.loaders.base import Document

_ATX = re.compile(r"^ {0,3}(#{1,6})(?:[ \t]+(.*?))?(?:[ \t]+#+)?[ \t]*$")
_FENCE = re.compile(r"^ {0,3}(`{3,}|~{3,})")
_SETEXT = re.compile(r"^ {0,3}(=+|-+)[ \t]*$")
_RST_ADORNMENT = re.compile(r"^([=\-~^\"'`#*+_:.])\1{2,}[ \t]*$")
_NOT_A_TITLE = re.compile(r"^\s*(?:[-*+>|]|\d+[.)]\s|$)")
_MD_IMAGE_OR_LINK = re.compile(r"!?\[([^\]]*)\]\([^)]*\)")
_MD_TAG = re.compile(r"<[^>]+>")
_MD_EMPHASIS = re.compile(r"[*`]|(?<!\w)_+|_+(?!\w)")


def markdown_drafts(document: Document, limits: Limits) -> list[Draft]:
    rst = str(document.metadata.get("language", "")) == "rst" or document.link.endswith(".rst")
    return section_drafts(document, markdown_sections(document.text, rst=rst), limits)


def markdown_sections(text: str, *, rst: bool) -> list[Section]:
    lines = text.splitlines()
    slugs = _Slugger()
    sections: list[Section] = []
    headings: list[tuple[int, str]] = []
    anchor = ""
    body: list[str] = []
    rst_levels: dict[str, int] = {}
    fence = ""
    index = 0
    while index < len(lines):
        line = lines[index]
        found: tuple[int, str] | None = None
        consumed = 1
        if fence:
            fence = "" if line.strip().startswith(fence) else fence
        elif opening := _FENCE.match(line):
            fence = opening.group(1)[:3]
        elif match := _ATX.match(line):
            found = (len(match.group(1)), match.group(2) or "")
        elif index + 1 < len(lines) and not _NOT_A_TITLE.match(line):
            found = _underlined_heading(line, lines[index + 1], rst=rst, rst_levels=rst_levels)
            consumed = 2
        if found is None:
            if not (rst and _RST_ADORNMENT.match(line)):  # RST overlines carry no text
                body.append(line)
            index += 1
            continue
        sections.append(Section(anchor, tuple(txt for _, txt in headings), "\n".join(body)))
        level, raw = found
        title = _markdown_heading_text(raw)
        headings = [(lvl, txt) for lvl, txt in headings if lvl < level] + [(level, title)]
        anchor = slugs.slug(title)
        body = []
        index += consumed
    sections.append(Section(anchor, tuple(txt for _, txt in headings), "\n".join(body)))
    return sections


def _underlined_heading(
    line: str, underline: str, *, rst: bool, rst_levels: dict[str, int]
) -> tuple[int, str] | None:
    if rst:
        match = _RST_ADORNMENT.match(underline)
        if not match or len(underline.rstrip()) < len(line.strip()):
            return None
        # RST has no fixed levels: the first adornment style seen is level 1, and so on.
        level = rst_levels.setdefault(match.group(1), len(rst_levels) + 1)
        return min(level, 6), line.strip()
    match = _SETEXT.match(underline)
    if not match:
        return None
    return (1 if match.group(1).startswith("=") else 2), line.strip()


def _markdown_heading_text(raw: str) -> str:
    text = _MD_IMAGE_OR_LINK.sub(r"\1", raw)
    text = _MD_TAG.sub("", text)
    text = _MD_EMPHASIS.sub("", text)
    return WHITESPACE.sub(" ", text).strip()[:MAX_HEADING_CHARS]


class _Slugger:
    """GitHub-style heading anchors: lower case, punctuation dropped, spaces to hyphens,
    repeats numbered ("usage", "usage-1")."""

    def __init__(self) -> None:
        self._seen: dict[str, int] = {}

    def slug(self, heading: str) -> str:
        base = github_slug(heading)
        count = self._seen.get(base, 0)
        self._seen[base] = count + 1
        return base if count == 0 else f"{base}-{count}"

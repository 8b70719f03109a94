"""HTML pages into sections: one per h1-h6 heading (and per Sphinx API entry), with its anchor."""

from typing import Any

from openguru.sources.chunking.base import MAX_HEADING_CHARS, WHITESPACE, Draft, Limits
from openguru.sources.chunking.sections import Section, section_drafts
from openguru.sources.loaders.base import Document
from openguru.sources.loaders.website_html import parse_html

_HEADINGS = ("h1", "h2", "h3", "h4", "h5", "h6")
_SKIPPED_TAGS = frozenset(
    {"script", "style", "noscript", "template", "svg", "iframe", "object", "button", "head"}
)
_BLOCK_TAGS = frozenset(
    {
        "p", "div", "section", "article", "main", "header", "footer", "aside", "nav",
        "blockquote", "figure", "figcaption", "ul", "ol", "dl", "dd", "dt", "form", "fieldset",
        "details", "summary", "address", "hr", "caption", "center", "body",
    }
)  # fmt: skip
_PERMALINK_CLASSES = ("headerlink", "header-anchor", "hash-link", "anchor", "anchorjs-link")
_PERMALINK_SYMBOLS = frozenset({"", "¶", "#", "§", "🔗"})


def html_drafts(document: Document, limits: Limits) -> list[Draft]:
    return section_drafts(document, html_sections(document.text), limits)


def html_sections(html: str) -> list[Section]:
    root = parse_html(html)  # nesting flattened: the walker recurses once per level
    if root is None:
        return []
    body = root.find("body")
    walker = _HtmlWalker()
    walker.walk(body if body is not None else root)
    return walker.sections()


class _TextBuilder:
    """Text of one section: inline runs with collapsed spaces, blank lines between blocks,
    <pre> content verbatim."""

    def __init__(self) -> None:
        self._out: list[str] = []
        self._pending_breaks = 0
        self._marker = ""  # a list bullet waiting for the item's first text

    def bullet(self) -> None:
        self.breaks(1)
        self._marker = "- "

    def inline(self, text: str) -> None:
        text = WHITESPACE.sub(" ", text)
        if not text.strip() and (not self._out or self._pending_breaks):
            return
        self._append(text)

    def verbatim(self, text: str) -> None:
        self.breaks(2)
        self._append(text.strip("\n"))
        self.breaks(2)

    def breaks(self, count: int) -> None:
        self._pending_breaks = max(self._pending_breaks, count)

    def _append(self, text: str) -> None:
        if self._pending_breaks and self._out:
            self._out[-1] = self._out[-1].rstrip(" ")
            self._out.append("\n" * self._pending_breaks)
            text = text.lstrip(" ")
        self._pending_breaks = 0
        if self._marker:
            text, self._marker = self._marker + text.lstrip(" "), ""
        self._out.append(text)

    def text(self) -> str:
        return "".join(self._out).strip()


class _HtmlWalker:
    """Walks the element tree once; each h1-h6 (and each top-level API entry, a `<dt id>` as
    Sphinx writes for functions, classes and glossary terms) starts a section with its anchor."""

    def __init__(self) -> None:
        self._headings: list[tuple[int, str]] = []
        self._current: tuple[str, tuple[str, ...]] = ("", ())
        self._builders: dict[tuple[str, tuple[str, ...]], _TextBuilder] = {}
        self._in_entry = False
        self._list_depth = 0  # inside a list item, paragraphs are lines, not blank-line blocks

    def sections(self) -> list[Section]:
        return [
            Section(anchor=anchor, headings=headings, body=builder.text())
            for (anchor, headings), builder in self._builders.items()
        ]

    def walk(self, element: Any) -> None:
        if element.text:
            self._builder().inline(element.text)
        for child in element:
            self._node(child)

    def _builder(self) -> _TextBuilder:
        return self._builders.setdefault(self._current, _TextBuilder())

    def _node(self, element: Any) -> None:
        tag = element.tag if isinstance(element.tag, str) else ""
        if tag and tag not in _SKIPPED_TAGS and not _is_permalink(element):
            self._element(element, tag)
        if element.tail:
            self._builder().inline(element.tail)

    def _element(self, element: Any, tag: str) -> None:
        if tag in _HEADINGS:
            self._start_heading(element, int(tag[1]))
        elif tag == "pre":
            self._builder().verbatim(element.text_content())
        elif tag == "table":
            self._table(element)
        elif tag == "br":
            self._builder().breaks(1)
        elif tag == "li":
            self._builder().bullet()
            self._list_depth += 1
            self.walk(element)
            self._list_depth -= 1
            self._builder().breaks(1)
        elif tag == "dl" and not self._in_entry and _has_entries(element):
            self._entries(element)
        elif tag in _BLOCK_TAGS:
            gap = 1 if self._list_depth else 2
            self._builder().breaks(gap)
            self.walk(element)
            self._builder().breaks(gap)
        else:
            self.walk(element)

    def _start_heading(self, element: Any, level: int) -> None:
        text = _heading_text(element)
        self._headings = [(lvl, txt) for lvl, txt in self._headings if lvl < level]
        self._headings.append((level, text))
        self._current = (_heading_anchor(element), tuple(txt for _, txt in self._headings))

    def _entries(self, dl: Any) -> None:
        outside = self._current
        self._in_entry = True
        self._builder().breaks(2)
        for child in dl:
            if child.tag == "dt" and child.get("id"):
                headings = (*(txt for _, txt in self._headings), _heading_text(child))
                self._current = (child.get("id"), headings)
                if child.tail:
                    self._builder().inline(child.tail)
            else:
                self._node(child)
        self._in_entry = False
        self._current = outside
        self._builder().breaks(2)

    def _table(self, table: Any) -> None:
        builder = self._builder()
        builder.breaks(2)
        for caption in table.iter("caption"):
            builder.inline(caption.text_content())
            builder.breaks(1)
        for row in table.iter("tr"):
            cells = [
                WHITESPACE.sub(" ", cell.text_content()).strip()
                for cell in row
                if cell.tag in ("td", "th")
            ]
            if any(cells):
                builder.inline(" | ".join(cells))
                builder.breaks(1)
        builder.breaks(2)


def _has_entries(dl: Any) -> bool:
    return any(child.tag == "dt" and child.get("id") for child in dl)


def _is_permalink(element: Any) -> bool:
    if element.tag != "a" or not (element.get("href") or "").startswith("#"):
        return False
    classes = (element.get("class") or "").split()
    if any(name in classes for name in _PERMALINK_CLASSES):
        return True
    return element.text_content().strip() in _PERMALINK_SYMBOLS


def _heading_text(element: Any) -> str:
    parts: list[str] = []

    def collect(node: Any) -> None:
        if isinstance(node.tag, str) and node.tag not in _SKIPPED_TAGS and not _is_permalink(node):
            parts.append(node.text or "")
            for child in node:
                collect(child)
        parts.append(node.tail or "")

    parts.append(element.text or "")
    for child in element:
        collect(child)
    text = WHITESPACE.sub(" ", "".join(parts)).strip().rstrip("¶#").strip()
    text = text.removesuffix("[source]").strip()
    return text[:MAX_HEADING_CHARS]


def _heading_anchor(heading: Any) -> str:
    """The heading's own id, else the id of an element inside it, else its permalink target,
    else the id of the section/div it opens (only if it is that container's first heading)."""
    if heading.get("id"):
        return str(heading.get("id"))
    for inner in heading.iterdescendants():
        if isinstance(inner.tag, str) and (inner.get("id") or inner.get("name")):
            return str(inner.get("id") or inner.get("name"))
        if isinstance(inner.tag, str) and _is_permalink(inner):
            return str(inner.get("href"))[1:]
    for ancestor in heading.iterancestors("section", "div", "article"):
        if ancestor.get("id"):
            first = next(ancestor.iter(*_HEADINGS), None)
            return str(ancestor.get("id")) if first is heading else ""
    return ""

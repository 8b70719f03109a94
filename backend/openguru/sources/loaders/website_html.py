"""Main-content extraction from a web page, keeping what citations need: headings and their ids.

The chunker downstream turns the fragment into chunks with heading paths and `#anchor` links, so
ids stay on every element (Sphinx puts the anchor on `<section id=...>`, API docs on `<dt id=...>`)
while site chrome (navigation, sidebars, footers, forms, permalink pilcrows) goes.
"""

import codecs
import re
from collections.abc import Iterable
from dataclasses import dataclass, field

import lxml.etree
import lxml.html

HTML_TYPES = frozenset({"text/html", "application/xhtml+xml"})

_XML_DECLARATION = re.compile(r"^\s*<\?xml[^>]*\?>", re.IGNORECASE)
# Deeper elements are unwrapped into their ancestor at this depth: the walkers downstream recurse
# once per level, and real pages stay far below it (docs themes nest 20 to 40 deep).
MAX_NESTING = 100
# Characters XML forbids: the HTML parser keeps them in text nodes, but lxml refuses to write them
# back, so the first text edit (dropping a comment next to one) would fail the whole page.
_NOT_XML_CHARACTERS = re.compile("[\x00-\x08\x0b\x0c\x0e-\x1f\ud800-\udfff\ufffe\uffff]")
_META_CHARSET = re.compile(rb"""<meta[^>]+charset\s*=\s*["']?\s*([\w:.-]+)""", re.IGNORECASE)


def _has_class(name: str) -> str:
    return f"contains(concat(' ', normalize-space(@class), ' '), ' {name} ')"


def _any_of(conditions: Iterable[str]) -> str:
    return " or ".join(conditions)


# Where the main content usually lives, most specific first.
_MAIN_CANDIDATES = (
    "//main",
    "//article",
    "//*[@role='main']",
    f"//div[{_has_class('body')}]",
    f"//div[{_has_class('document')}]",
    "//*[@id='content']",
    "//*[@id='main-content']",
)
_HEADINGS = "self::h1 or self::h2 or self::h3 or self::h4 or self::h5 or self::h6"
_JUNK_TAGS = (
    "script", "style", "noscript", "template", "nav", "aside", "form", "iframe", "button",
    "input", "select", "textarea", "svg", "canvas", "object", "embed", "dialog", "footer",
)  # fmt: skip
_JUNK_ROLES = ("navigation", "search", "contentinfo", "complementary")
_JUNK_CLASSES = ("headerlink", "sphinxsidebar", "related", "footer", "breadcrumbs", "skip-link")
_JUNK = "//*[{}]".format(
    _any_of(
        [f"self::{tag}" for tag in _JUNK_TAGS]
        + [f"@role='{role}'" for role in _JUNK_ROLES]
        + [_has_class(name) for name in _JUNK_CLASSES]
        + ["@hidden", "@aria-hidden='true'"]
        # A page header is chrome unless it holds the page's heading (<article><header><h1>).
        + [f"self::header[not(.//*[{_HEADINGS}])]"]
    )
)
# Attributes worth keeping: anchors, link targets, table shape, and the class of code blocks
# (Sphinx and most highlighters name the language there).
_KEPT_ATTRIBUTES = frozenset({"id", "name", "href", "alt", "lang", "colspan", "rowspan", "start"})
_CLASS_KEPT_ON = frozenset({"pre", "code", "div"})


@dataclass(frozen=True)
class ParsedPage:
    title: str
    html: str  # the main content as an HTML fragment; "" when the page has no text
    links: list[str] = field(default_factory=list)  # absolute hrefs, in document order
    language: str = ""


def decode_html(body: bytes, charset: str | None = None) -> str:
    """Bytes to text: the BOM, then the HTTP charset, then <meta charset>, then UTF-8."""
    if body.startswith(codecs.BOM_UTF8):
        return body.decode("utf-8-sig", errors="replace")
    sniffed = _META_CHARSET.search(body[:4096])
    meta_charset = sniffed.group(1).decode("ascii", errors="ignore") if sniffed else None
    for candidate in (charset, meta_charset):
        if not candidate:
            continue
        try:
            return body.decode(candidate)
        except (LookupError, UnicodeError):  # "undefined" and "punycode" raise the base class
            continue
    return body.decode("utf-8", errors="replace")


def parse_html(text: str) -> lxml.html.HtmlElement | None:
    """The document tree of `text`, None when there is nothing to parse.

    libxml2 stops reading a page at 256 levels of nesting by default, silently dropping the rest
    of the page (old pages with hundreds of unclosed <font> tags reach that); huge_tree lifts the
    ceiling to about 2,000. Past MAX_NESTING the tree is then flattened, text kept in order."""
    # lxml refuses a str that still carries an XML encoding declaration (XHTML pages).
    text = _NOT_XML_CHARACTERS.sub(" ", _XML_DECLARATION.sub("", text, count=1))
    if not text.strip():
        return None
    try:
        document = lxml.html.document_fromstring(text, parser=lxml.html.HTMLParser(huge_tree=True))
    except (lxml.etree.ParserError, ValueError):
        return None
    flatten_deep_nesting(document, MAX_NESTING)
    return document


def flatten_deep_nesting(root: lxml.etree._Element, max_depth: int) -> None:
    """Unwrap every element nested more than `max_depth` below `root` that has children of its
    own: its text, its childless elements (a heading, a <br>) and its tail stay where they were."""
    pending = [(root, 0)]
    while pending:
        element, depth = pending.pop()
        if depth >= max_depth:
            _flatten(element)
        else:
            pending.extend((child, depth + 1) for child in element if len(child))


def _flatten(element: lxml.etree._Element) -> None:
    # One pass in document order (iterative: this runs where recursion would not fit) records
    # the text runs and childless elements; the subtree is then replaced by them at once.
    pieces: list[str | tuple[lxml.etree._Element, str]] = []
    for event, node in lxml.etree.iterwalk(element, events=("start", "end")):
        if node is element:
            continue
        if not len(node):
            if event == "start":
                pieces.append((node, node.tail or ""))
        elif event == "start":
            pieces.append(node.text or "")
        else:
            pieces.append(node.tail or "")
    kept: list[lxml.etree._Element] = []
    text = element.text or ""
    for piece in pieces:
        if isinstance(piece, str):
            if kept:
                kept[-1].tail = (kept[-1].tail or "") + piece
            else:
                text += piece
        else:
            node, tail = piece
            node.tail = tail
            kept.append(node)
    element[:] = kept
    element.text = text or None


def _document(text: str, url: str) -> lxml.html.HtmlElement | None:
    document = parse_html(text)
    if document is None:
        return None
    document.make_links_absolute(url, resolve_base_href=True, handle_failures="discard")
    return document


def _links(document: lxml.html.HtmlElement) -> list[str]:
    return [str(href) for href in document.xpath("//a/@href | //area/@href") if str(href).strip()]


def _title(document: lxml.html.HtmlElement) -> str:
    title = document.find(".//title")
    if title is not None and title.text_content().strip():
        return " ".join(title.text_content().split())
    heading = document.find(".//h1")
    return " ".join(heading.text_content().split()) if heading is not None else ""


def _drop_junk(document: lxml.html.HtmlElement) -> None:
    for element in document.xpath(_JUNK):
        if element.getparent() is not None:
            element.drop_tree()  # keeps the tail text, which belongs to the parent
    for comment in document.xpath("//comment() | //processing-instruction()"):
        if comment.getparent() is not None:
            comment.drop_tree()


def _main_element(document: lxml.html.HtmlElement) -> lxml.html.HtmlElement:
    for xpath in _MAIN_CANDIDATES:
        for element in document.xpath(xpath):
            if element.text_content().strip():
                return element
    body = document.find("body")
    return body if body is not None else document


def _clean_attributes(root: lxml.html.HtmlElement) -> None:
    for element in root.iter():
        if not isinstance(element.tag, str):
            continue
        kept = {
            name: value
            for name, value in element.attrib.items()
            if name in _KEPT_ATTRIBUTES or (name == "class" and element.tag in _CLASS_KEPT_ON)
        }
        # Cleared, not deleted by name: lxml reads a name that starts with "{" (`<p {a}b=1>`,
        # which the HTML parser accepts) as a namespace and cannot delete it by that name.
        element.attrib.clear()
        element.attrib.update(kept)


def _fragment(main: lxml.html.HtmlElement) -> str:
    if not main.text_content().strip():
        return ""
    _clean_attributes(main)
    if main.tag in ("html", "body"):
        main.tag = "div"
    return str(lxml.html.tostring(main, encoding="unicode", with_tail=False))


def parse_page(body: bytes, *, url: str, charset: str | None = None) -> ParsedPage:
    """Title, main-content fragment and outgoing links of an HTML page fetched from `url`."""
    document = _document(decode_html(body, charset), url)
    if document is None:
        return ParsedPage(title="", html="")
    links = _links(document)  # before the chrome goes: navigation is how a crawler finds pages
    title = _title(document)
    language = str(document.get("lang", "")).strip()
    _drop_junk(document)
    return ParsedPage(
        title=title, html=_fragment(_main_element(document)), links=links, language=language
    )


def page_links(body: bytes, *, url: str, charset: str | None = None) -> list[str]:
    """Only the outgoing links (an unchanged page still has to be crawled through)."""
    document = _document(decode_html(body, charset), url)
    return _links(document) if document is not None else []

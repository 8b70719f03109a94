"""Properties of the website loader's extraction (`parse_page`) and the HTML chunker behind it.

No exception on any page, whatever its tags, nesting, entities or declared charset; the words of
a paragraph come out of the extracted fragment and out of the chunks, wherever the paragraph
sits (inside lists, tables, captions, details...), and however deep.
"""

import sys
from collections.abc import Callable

import lxml.html
import pytest
from hypothesis import given
from hypothesis import strategies as st
from openguru.sources.chunking import chunk_documents
from openguru.sources.chunking.html import html_sections
from openguru.sources.loaders.base import Document
from openguru.sources.loaders.website_html import decode_html, parse_page

from tests.fuzz.strategies import FUZZ, HTML_FRAGMENT, fuzz, html_page

URL = "https://docs.example.org/guide/page.html"
# Declared charsets a page may carry, sane or not (some Python codecs are not text encodings,
# and "undefined" and "punycode" fail with a bare UnicodeError).
CHARSETS = st.sampled_from(
    [
        *[None, "utf-8", "latin-1", "utf-16", "shift_jis", "utf-7", "undefined", "punycode"],
        *["rot13", "unicode_escape", "idna", "base64", "zlib", "no-such-charset", ""],
    ]
)
# Where a paragraph may sit: containers whose text is content, never site chrome.
WRAPPERS = st.sampled_from(
    [
        ("", ""),
        ("<div>", "</div>"),
        ("<section id='s'>", "</section>"),
        ("<ul><li>", "</li></ul>"),
        ("<ol><li><div>", "</div></li></ol>"),
        ("<table><tr><td>", "</td></tr></table>"),
        ("<table><caption>", "</caption><tr><td>cell</td></tr></table>"),
        ("<blockquote>", "</blockquote>"),
        ("<details><summary>More</summary>", "</details>"),
        ("<dl><dt>Term</dt><dd>", "</dd></dl>"),
        ("<article>", "</article>"),
        ("<span>", "</span>"),
    ]
)
CLOSED_TEXT = st.sampled_from(["plain words", "&amp; &lt;ok&gt;", "&nbsp;", "¶", "a\nb\tc"])


@st.composite
def closed_fragment(draw: st.DrawFn) -> str:
    """Well-formed content (every tag closed, no junk containers) around the paragraph."""
    tag = draw(st.sampled_from(["div", "p", "ul", "h2", "pre", "table", "em", "section"]))
    inner = draw(CLOSED_TEXT)
    if tag == "ul":
        return f"<ul><li>{inner}</li></ul>"
    if tag == "table":
        return f"<table><tr><th>{inner}</th></tr></table>"
    return f"<{tag}>{inner}</{tag}>"


@st.composite
def marker_words(draw: st.DrawFn) -> list[str]:
    """Distinct words, so each can be looked for on its own."""
    count = draw(st.integers(min_value=1, max_value=25))
    letters = st.text("abcdefghijklmnopqrstuvwxyzé", min_size=0, max_size=8)
    return [f"w{index}{draw(letters)}" for index in range(count)]


def squeezed(text: str) -> str:
    return " ".join(text.split())


def html_chunks(html: str, *, size: int = 512) -> list[str]:
    document = Document(title="Guide", link=URL, text=html, format="html")
    chunks = chunk_documents(
        [document], size_tokens=size, overlap_tokens=0, min_chars=0, count_tokens=len
    )
    return [chunk.text for chunk in chunks]


@FUZZ
@given(html_page(), CHARSETS)
def test_any_page_is_extracted_and_chunked_without_error(html: str, charset: str | None) -> None:
    body = html.encode("utf-8", errors="surrogatepass")
    page = parse_page(body, url=URL, charset=charset)
    assert all(link.strip() for link in page.links)
    for text in html_chunks(page.html, size=40):
        assert len(text) <= 40


@fuzz(100)
@given(st.binary(max_size=2000), CHARSETS)
def test_any_bytes_decode_and_parse(body: bytes, charset: str | None) -> None:
    assert isinstance(decode_html(body, charset), str)
    page = parse_page(body, url=URL, charset=charset)
    html_sections(page.html)


@pytest.mark.parametrize("attribute", ["{", "{a}b", "{}", "{x"])
def test_an_attribute_named_like_a_namespace_is_dropped_not_fatal(attribute: str) -> None:
    # The HTML parser accepts these names; lxml cannot delete one by name (found by fuzzing
    # uploaded HTML files, tests/fuzz/test_malformed_files.py).
    body = f"<main><p {attribute}=1 id=ford>Cross at dawn.</p></main>".encode()
    page = parse_page(body, url=URL)
    assert page.html == '<main><p id="ford">Cross at dawn.</p></main>'


@FUZZ
@given(
    st.lists(closed_fragment(), max_size=4),
    WRAPPERS,
    marker_words(),
    st.lists(closed_fragment(), max_size=4),
    st.sampled_from(["<main>{}</main>", "<body>{}</body>", "<div role='main'>{}</div>", "{}"]),
)
def test_paragraph_words_come_out_of_extraction_and_chunks(
    before: list[str], wrapper: tuple[str, str], words: list[str], after: list[str], page: str
) -> None:
    paragraph = f"{wrapper[0]}<p>{' '.join(words)}</p>{wrapper[1]}"
    html = "<html><head><title>T</title></head><body>{}</body></html>".format(
        page.format("".join(before) + paragraph + "".join(after))
    )
    extracted = parse_page(html.encode(), url=URL)
    assert extracted.html, html
    assert " ".join(words) in squeezed(lxml.html.fromstring(extracted.html).text_content())
    chunks = html_chunks(extracted.html)
    assert " ".join(words) in squeezed(" ".join(chunks))


@fuzz(40)
@given(st.lists(HTML_FRAGMENT, max_size=3), marker_words())
def test_paragraph_after_arbitrary_markup_in_its_own_section_comes_out(
    markup: list[str], words: list[str]
) -> None:
    # Whatever came before (unclosed tags included), a paragraph in a closed <main> of its own
    # is main content.
    html = f"<body>{''.join(markup)}</body><main><h2>Own</h2><p>{' '.join(words)}</p></main>"
    extracted = parse_page(html.encode(), url=URL)
    if "<main" in "".join(markup) or "<script" in "".join(markup):
        return  # a raw-text or main element left open swallows what follows, as in browsers
    chunks = squeezed(" ".join(html_chunks(extracted.html)))
    assert all(word in chunks for word in words)


@pytest.mark.parametrize("depth", [255, 300, 1000, 2000])
@pytest.mark.parametrize("tag", ["div", "span", "font", "blockquote"])
def test_deeply_nested_pages_keep_their_text_before_inside_and_after(depth: int, tag: str) -> None:
    nested = f"<{tag}>" * depth + "<p>deep aardvark words</p>" + f"</{tag}>" * depth
    html = f"<main><h1>Top</h1><p>before bison</p>{nested}<p>after cheetah</p></main>"
    page = parse_page(html.encode(), url=URL)
    chunks = _at_stack_depth(300, lambda: html_chunks(page.html))
    text = squeezed(" ".join(chunks))
    for words in ("before bison", "deep aardvark words", "after cheetah"):
        assert words in text


def test_a_hundred_thousand_nested_tags_keep_what_comes_before() -> None:
    html = "<main><p>before bison</p>" + "<div>" * 100_000 + "<p>deep</p></main>"
    page = parse_page(html.encode(), url=URL)
    assert "before bison" in squeezed(" ".join(html_chunks(page.html)))


def _at_stack_depth(frames: int, call: Callable[[], list[str]]) -> list[str]:
    """Run `call` with `frames` frames already on the stack, as in a worker (Celery, Django
    and the indexer sit below the chunker), so recursion headroom is not overstated."""
    if frames <= 0:
        assert sys.getrecursionlimit() <= 1000, "the headroom is measured at the default limit"
        return call()
    return _at_stack_depth(frames - 1, call)

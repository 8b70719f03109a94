"""chunk_documents on each document format: HTML, Markdown and reStructuredText, code."""

import pytest
from openguru.sources.chunking import Chunk
from openguru.sources.loaders.base import Document

from tests.sources.chunking_helpers import (
    MARKDOWN,
    PAGE,
    REPO_FILE,
    SPHINX_PAGE,
    by_anchor,
    chunks_of,
    python_module,
)

pytestmark = pytest.mark.fast


# --- html -------------------------------------------------------------------------------------


def html_chunks() -> list[Chunk]:
    page = Document(
        title="8. Compound statements — Python 3.11 documentation",
        link=PAGE,
        text=SPHINX_PAGE,
        format="html",
        metadata={"crawled": "yes"},
    )
    return chunks_of(page)


def test_html_sections_link_to_their_anchors() -> None:
    chunks = by_anchor(html_chunks())

    assert chunks["the-if-statement"].metadata["link"] == f"{PAGE}#the-if-statement"
    assert chunks["loop-else"].metadata["link"] == f"{PAGE}#loop-else"
    assert chunks["compound-statements"].metadata["link"] == f"{PAGE}#compound-statements"
    assert {chunk.type for chunk in chunks.values()} == {"text"}


def test_html_heading_paths_follow_the_outline() -> None:
    chunks = by_anchor(html_chunks())
    title = "8. Compound statements — Python 3.11 documentation"

    assert chunks["compound-statements"].metadata["heading_path"] == title  # h1 repeats title
    assert (
        chunks["the-for-statement"].metadata["heading_path"] == f"{title} > 8.3. The for statement"
    )
    assert chunks["loop-else"].metadata["heading_path"] == (
        f"{title} > 8.3. The for statement > Loop else clauses"
    )


def test_html_chunk_text_starts_with_its_context_and_keeps_blocks() -> None:
    chunk = by_anchor(html_chunks())["the-if-statement"]

    assert chunk.text.startswith(chunk.metadata["heading_path"] + "\n\n")
    assert 'if_stmt ::=  "if" assignment_expression ":" suite\n             ("elif"' in chunk.text
    assert "- It selects exactly one of the suites.\n- Evaluation is lazy." in chunk.text
    assert "¶" not in chunk.text


def test_html_tables_become_rows_of_text() -> None:
    chunk = by_anchor(html_chunks())["the-for-statement"]

    assert "Keyword | Meaning\nbreak | leave the loop early" in chunk.text
    assert "Loop else clauses" not in chunk.text.split("\n\n", 1)[1]  # next section's text


def test_api_entries_are_their_own_sections() -> None:
    chunks = by_anchor(html_chunks())

    entry = chunks["functools.wraps"]
    assert entry.metadata["link"] == f"{PAGE}#functools.wraps"
    assert entry.metadata["heading_path"].endswith("8.7. Function definitions > wraps(wrapped)")
    assert "Convenience decorator" in entry.text
    # Text after the entry list belongs to the enclosing section again.
    assert "Default parameter values" in chunks["function-definitions"].text


def test_heading_without_anchor_links_to_the_page_and_keeps_doc_metadata() -> None:
    chunk = next(c for c in html_chunks() if "neither an id" in c.text)

    assert chunk.metadata["anchor"] == ""
    assert chunk.metadata["link"] == PAGE
    assert chunk.metadata["doc_link"] == PAGE
    assert chunk.metadata["crawled"] == "yes"


def test_heading_anchor_falls_back_to_its_section_then_permalink() -> None:
    html = (
        '<div id="main"><h1>Guide</h1><p>Intro text of the guide page, long enough.</p>'
        '<h2>Setup<a class="headerlink" href="#setup-anchor">¶</a></h2><p>Setup text that is long enough.</p>'
        '<div id="tips"><h2>Tips</h2><p>Tips text that is long enough to keep.</p></div>'
        "<h2>Later</h2><p>Later text under the main div but not its first heading.</p></div>"
    )
    page = Document(title="Guide", link="https://x.org/guide", text=html, format="html")

    anchors = [chunk.metadata["anchor"] for chunk in chunks_of(page)]

    assert anchors == ["main", "setup-anchor", "tips", ""]


# --- markdown ---------------------------------------------------------------------------------


def test_markdown_anchors_are_github_slugs() -> None:
    readme = Document(title="README.md", link=REPO_FILE, text=MARKDOWN, format="markdown")

    chunks = chunks_of(readme)

    assert [chunk.metadata["link"].split("#")[-1] for chunk in chunks] == [
        REPO_FILE.split("#")[-1],  # text before the first heading: the file itself
        "widgets",
        "install-widgets-python-311",
        "usage",
        "install-widgets-python-311-1",
    ]
    assert (
        chunks[2].metadata["heading_path"] == "README.md > Widgets > Install widgets (Python 3.11+)"
    )
    assert "# this comment is not a heading" in chunks[2].text
    assert chunks[3].metadata["heading_path"] == "README.md > Widgets > Usage"


def test_rst_underlined_titles_are_headings() -> None:
    rst = (
        "Widgets manual\n==============\n\nThe manual for the widgets library.\n\n"
        "Getting started\n---------------\n\nInstall the package, then render a widget.\n\n"
        "Advanced topics\n===============\n\nCustom renderers and themes for widgets.\n"
    )
    doc = Document(
        title="docs/manual.rst",
        link="https://github.com/acme/widgets/blob/main/docs/manual.rst",
        text=rst,
        format="markdown",
        metadata={"language": "rst"},
    )

    paths = [chunk.metadata["heading_path"] for chunk in chunks_of(doc)]

    assert paths == [
        "docs/manual.rst > Widgets manual",
        "docs/manual.rst > Widgets manual > Getting started",
        "docs/manual.rst > Advanced topics",
    ]


# --- code -------------------------------------------------------------------------------------


def test_code_chunks_carry_line_ranges() -> None:
    source = python_module(12)
    doc = Document(
        title="acme/widgets: src/widgets/core.py",
        link=REPO_FILE,
        text=source,
        format="code",
        metadata={"path": "src/widgets/core.py", "language": "python"},
    )

    chunks = chunks_of(doc, size=50, overlap=0)

    lines = source.splitlines()
    assert len(chunks) > 3
    covered: set[int] = set()
    for chunk in chunks:
        first, last = chunk.metadata["start_line"], chunk.metadata["end_line"]
        assert chunk.type == "code"
        assert chunk.metadata["link"] == f"{REPO_FILE}#L{first}-L{last}"
        body = chunk.text.split("\n\n", 1)[1]
        assert body.strip() == "\n".join(lines[first - 1 : last]).strip()
        covered.update(range(first, last + 1))
    assert {n for n, line in enumerate(lines, start=1) if line.strip()} <= covered
    # The language splitter cuts between functions, not inside them.
    assert all(
        chunk.text.split("\n\n", 1)[1].lstrip().startswith(("def ", '"""')) for chunk in chunks
    )

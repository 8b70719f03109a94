"""Properties of `chunk_documents` on arbitrary prose, Markdown and code.

Invariants (see openguru.sources.chunking): no exception; every chunk within the token budget
(its context prefix included); a chunk's body (the text after the prefix) is a piece of the
source, where the only normalisation is that Markdown lines are re-joined with "\\n"; with no
minimum size, the chunks cover every non-space character of the source, in order; and the same
input gives the same chunks.
"""

from collections.abc import Sequence

from hypothesis import given
from hypothesis import strategies as st
from openguru.sources.chunking import Chunk, chunk_documents
from openguru.sources.loaders.base import Document, Format

from tests.fuzz.strategies import (
    COUNTERS,
    FUZZ,
    LANGUAGES,
    CountTokens,
    code,
    markdown,
    prose,
)

SIZES = st.integers(min_value=8, max_value=80)
OVERLAPS = st.integers(min_value=0, max_value=24)
LINK = "https://docs.example.org/guide.html"


def chunks_of(
    document: Document, *, size: int, overlap: int, count: CountTokens, min_chars: int = 0
) -> list[Chunk]:
    return list(
        chunk_documents(
            [document],
            size_tokens=size,
            overlap_tokens=overlap,
            min_chars=min_chars,
            count_tokens=count,
        )
    )


def body_of(chunk: Chunk) -> str:
    """The chunk without its context prefix (heading path or title, then a blank line)."""
    path = str(chunk.metadata.get("heading_path", ""))
    if not path:
        return chunk.text
    if chunk.text.startswith(path + "\n\n"):
        return chunk.text[len(path) + 2 :]
    return chunk.text.partition("\n\n")[2]  # the prefix was shortened to fit the budget


def non_space(text: str) -> str:
    return "".join(text.split())


def assert_covers_in_order(source: str, bodies: Sequence[str]) -> None:
    """Each body is found in `source` at or after the previous one's start (overlap allowed),
    leaving nothing out before it but spaces, or words an earlier chunk already holds (a
    document's identical chunks are kept once: they would share one id); at the end nothing
    is left out."""
    start = covered_to = 0
    for number, body in enumerate(bodies):
        earlier = "\n".join(bodies[:number])
        reach = covered_to + len(source[covered_to:]) - len(source[covered_to:].lstrip())
        places = _occurrences(source, body, start)
        contiguous = [p for p in places if p <= reach]
        repeats = [p for p in places if _already_said(source[covered_to:p], earlier)]
        assert contiguous or repeats, f"{body!r} is not in the source right after {covered_to}"
        start = contiguous[-1] if contiguous else repeats[0]  # the latest fit covers the most
        covered_to = max(covered_to, start + len(body))
    rest = source[covered_to:]
    assert _already_said(rest, "\n".join(bodies)), f"{rest!r} is in no chunk"


def _already_said(gap: str, earlier: str) -> bool:
    """The gap's non-space text is made of pieces of `earlier` (greedy, longest piece first)."""
    rest, said = non_space(gap), non_space(earlier)
    while rest:
        length = len(rest)
        while length and rest[:length] not in said:
            length -= 1
        if not length:
            return False
        rest = rest[length:]
    return True


def _occurrences(text: str, piece: str, start: int) -> list[int]:
    places = []
    while (found := text.find(piece, start)) >= 0:
        places.append(found)
        start = found + 1
    return places


def assert_within_budget(chunks: Sequence[Chunk], size: int, count: CountTokens) -> None:
    for chunk in chunks:
        assert count(chunk.text) <= size, (count(chunk.text), size, chunk.text)
        assert chunk.text.strip(), "an empty chunk"


@FUZZ
@given(prose(), SIZES, OVERLAPS, COUNTERS)
def test_prose_chunks_fit_come_from_the_text_and_cover_it(
    text: str, size: int, overlap: int, count: CountTokens
) -> None:
    document = Document(title="", link=LINK, text=text, format="text")
    chunks = chunks_of(document, size=size, overlap=overlap, count=count)
    assert_within_budget(chunks, size, count)
    assert_covers_in_order(text, [chunk.text for chunk in chunks])
    assert (not chunks) == (not text.strip())


@FUZZ
@given(prose(), st.sampled_from(["Guide", "A very long title " * 8, "Ünïcode > path"]), SIZES)
def test_titled_prose_chunks_start_with_the_title_and_fit(text: str, title: str, size: int) -> None:
    document = Document(title=title, link=LINK, text=text, format="text")
    for count in (len, lambda t: len(t.split())):
        chunks = chunks_of(document, size=size, overlap=4, count=count)
        assert_within_budget(chunks, size, count)
        for chunk in chunks:
            assert body_of(chunk) in text.strip()


@FUZZ
@given(markdown(), SIZES, OVERLAPS, COUNTERS, st.booleans())
def test_markdown_chunks_fit_and_their_bodies_are_source_lines(
    text: str, size: int, overlap: int, count: CountTokens, rst: bool
) -> None:
    link = "https://github.com/acme/w/blob/main/README" + (".rst" if rst else ".md")
    document = Document(title="README", link=link, text=text, format="markdown")
    chunks = chunks_of(document, size=size, overlap=overlap, count=count)
    assert_within_budget(chunks, size, count)
    if rst:
        return  # RST over- and underlines are dropped from the text: not a plain substring
    rejoined = "\n".join(text.splitlines())  # the documented normalisation: line ends
    for chunk in chunks:
        assert body_of(chunk) in rejoined
        assert chunk.metadata["link"].startswith(link)


@FUZZ
@given(code(), SIZES, OVERLAPS, COUNTERS, LANGUAGES)
def test_code_chunks_fit_cover_the_file_and_name_their_lines(
    text: str, size: int, overlap: int, count: CountTokens, language: str
) -> None:
    link = "https://github.com/acme/w/blob/main/src/core.py"
    document = Document(
        title="", link=link, text=text, format="code", metadata={"language": language}
    )
    chunks = chunks_of(document, size=size, overlap=overlap, count=count)
    assert_within_budget(chunks, size, count)
    assert_covers_in_order(text, [chunk.text for chunk in chunks])
    lines = text.split("\n")
    for chunk in chunks:
        first, last = chunk.metadata["start_line"], chunk.metadata["end_line"]
        assert chunk.metadata["link"] == f"{link}#L{first}-L{last}"
        assert 1 <= first <= last <= len(lines)
        assert chunk.text in "\n".join(lines[first - 1 : last]), "the link names other lines"


@FUZZ
@given(st.one_of(prose(), markdown(), code()), st.sampled_from(["text", "markdown", "code", "faq"]))
def test_every_format_is_deterministic_and_never_raises(text: str, format: Format) -> None:
    document = Document(title="T", link=LINK, text=text, format=format)
    first = chunks_of(document, size=16, overlap=4, count=len, min_chars=20)
    again = chunks_of(document, size=16, overlap=4, count=len, min_chars=20)
    assert [(c.hash, c.text) for c in first] == [(c.hash, c.text) for c in again]
    assert len({c.hash for c in first}) == len(first), "duplicate chunks"
    if format == "faq":
        assert all(len(chunk.text) <= 16 * 4 for chunk in first)  # a pair is cut at 4x size

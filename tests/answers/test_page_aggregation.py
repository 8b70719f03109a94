"""Page-level ordering of retrieval candidates (hand-computed cases)."""

import pytest
from openguru.answers.engine.fusion import Candidate
from openguru.answers.engine.pages import PAGE_RANK_K, by_page, page_of, page_scores
from openguru.answers.engine.retrieval import retrieve
from openguru.providers.embeddings.fake import FakeEmbedder
from openguru.providers.vectorstore.base import ChunkRecord, SearchHit
from openguru.providers.vectorstore.memory import MemoryVectorStore

pytestmark = pytest.mark.fast


def chunk(id_: str, link: str = "", source_id: int = 1) -> Candidate:
    hit = SearchHit(
        id=id_,
        text=id_,
        source_id=source_id,
        chunk_hash=id_,
        type="text",
        metadata={"link": link} if link else {},
        score=0.0,
    )
    return Candidate(hit=hit)


def ids(candidates: list[Candidate]) -> list[str]:
    return [c.hit.id for c in candidates]


def rr(*ranks: int) -> float:
    return sum(1 / (PAGE_RANK_K + rank) for rank in ranks)


def test_sections_of_one_page_share_it_and_sources_keep_theirs_apart():
    a = chunk("a", "https://docs.example/io.html#open")
    b = chunk("b", "https://docs.example/io.html#close")
    other_source = chunk("c", "https://docs.example/io.html#open", source_id=2)
    assert page_of(a) == page_of(b) == (1, "https://docs.example/io.html")
    assert page_of(other_source) != page_of(a)
    assert page_of(chunk("d")) == (1, "d")  # no link: the chunk is its own page


def test_a_page_scores_its_best_three_sections_at_their_best_chunks():
    ranked = [
        chunk("open-1", "/io#open"),
        chunk("open-2", "/io#open"),  # a second chunk of the same section counts no more
        chunk("modes", "/io#modes"),
        chunk("close", "/io#close"),
        chunk("flush", "/io#flush"),  # a fourth section counts no more either
        chunk("stray", "/q"),
    ]
    scores = page_scores(ranked)
    assert scores[(1, "/io")] == pytest.approx(rr(1, 3, 4))
    assert scores[(1, "/q")] == pytest.approx(rr(6))


def test_a_page_several_sections_match_goes_ahead_of_one_stray_match():
    ranked = [
        chunk("stray", "/changelog#3-11"),
        chunk("open", "/io#open"),
        chunk("modes", "/io#modes"),
        chunk("close", "/io#close"),
    ]
    assert rr(2, 3, 4) > rr(1)
    assert ids(by_page(ranked)) == ["open", "stray", "modes", "close"]


def test_a_long_section_cut_into_chunks_is_one_match():
    ranked = [chunk("a", "/a#x"), chunk("b1", "/b#y"), chunk("b2", "/b#y"), chunk("b3", "/b#y")]
    assert ids(by_page(ranked)) == ["a", "b1", "b2", "b3"]


def test_only_the_leading_places_are_one_chunk_per_page():
    ranked = [chunk("a1", "/a#1"), chunk("a2", "/a#2"), chunk("b1", "/b#1"), chunk("c1", "/c#1")]
    assert ids(by_page(ranked)) == ["a1", "b1", "c1", "a2"]
    # beyond the leading pages every chunk keeps its own place
    assert ids(by_page(ranked, leading=1)) == ["a1", "a2", "b1", "c1"]


def test_one_link_per_document_keeps_the_order():
    ranked = [chunk("d3-1", "d3"), chunk("d1", "d1"), chunk("d3-2", "d3"), chunk("d2", "d2")]
    assert ids(by_page(ranked)) == ["d3-1", "d1", "d2", "d3-2"]
    assert [page_of(c) for c in by_page(ranked)][:3] == [(1, "d3"), (1, "d1"), (1, "d2")]
    assert by_page([]) == []


def test_retrieval_orders_its_candidates_by_page_when_the_setting_is_on(settings):
    embedder, store = FakeEmbedder(), MemoryVectorStore()
    store.create_collection("docs", dimension=embedder.dimension)
    sections = [
        ("/io#open", "open a file for reading"),
        ("/io#modes", "file modes for reading and writing"),
        ("/io#close", "close a file after reading"),
        ("/changelog#3-11", "reading a file is faster"),
        ("/os#path", "paths of files"),
    ]
    texts = [text for _, text in sections]
    store.upsert(
        "docs",
        [
            ChunkRecord(
                id=str(i),
                vector=vector,
                text=text,
                source_id=1,
                chunk_hash=str(i),
                type="text",
                metadata={"link": link},
            )
            for i, ((link, text), vector) in enumerate(
                zip(sections, embedder.embed_documents(texts), strict=True)
            )
        ],
    )

    def ranked() -> list[Candidate]:
        return retrieve(
            collection="docs",
            queries=["how do I read a file"],
            mode="dense",
            limit=len(sections),
            embedder=embedder,
            store=store,
        ).candidates

    settings.RETRIEVAL_PAGE_AGGREGATION = False
    plain = ranked()
    settings.RETRIEVAL_PAGE_AGGREGATION = True
    assert ids(ranked()) == ids(by_page(plain))

"""The capacity section: its plan, the arithmetic behind its figures, and the embedding service
it runs (the same model's vectors on both wires the product's embedders speak)."""

import os
import threading
from pathlib import Path

import numpy as np
import pytest
from benchmarks.capacity import FULL_CAPACITY, QUICK_CAPACITY, CapacityPlan, embedder_summary
from benchmarks.capacity_embedding import cpu_s_per_thousand, cycled, topics_text
from benchmarks.capacity_search import mb_per_100k_chunks, mb_per_guru
from benchmarks.capacity_worker import proc_status_mb
from benchmarks.config import BenchConfig


def test_capacity_alone_needs_the_database_but_no_docs_guru() -> None:
    config = BenchConfig.build(sections=("capacity",), output=Path("x.json"))
    assert config.needs_database
    assert not config.needs_docs_guru and not config.asks
    assert config.capacity == CapacityPlan()
    assert BenchConfig.build(sections=("capacity",), output=Path("x"), quick=True).capacity == (
        QUICK_CAPACITY
    )


def test_the_search_parts_draw_from_one_corpus_big_enough_for_each() -> None:
    assert CapacityPlan().corpus_chunks == 100_000  # 100k in one collection, 100 gurus of 1,000
    plan = CapacityPlan(
        growth_sizes=(2_000,), guru_levels=(1, 30), chunks_per_guru=500, shared_gurus=10
    )
    assert plan.corpus_chunks == 15_000
    shared = CapacityPlan(growth_sizes=(2_000,), guru_levels=(1,), shared_gurus=100)
    assert shared.corpus_chunks == 50 + 100 * 200  # the small guru and 100 gurus of 200
    assert QUICK_CAPACITY.corpus_chunks == 10_050
    assert FULL_CAPACITY.corpus_chunks == 50 + 1_000 * 200


def test_one_part_runs_on_its_own_drawing_only_the_chunks_it_needs() -> None:
    config = BenchConfig.build(
        sections=("capacity",),
        output=Path("x.json"),
        full=True,
        capacity_parts=("shared",),
        capacity_gurus=300,
    )
    assert config.capacity.parts == ("shared",)
    assert config.capacity.shared_gurus == config.capacity.shared_empty_gurus == 300
    assert config.capacity.corpus_chunks == 50 + 300 * 200  # not the 100k growth size
    assert config.as_dict()["capacity_parts"] == ["shared"]
    assert CapacityPlan().only(parts=("embedding",)).corpus_chunks == 0
    assert CapacityPlan().only() == CapacityPlan()
    with pytest.raises(ValueError, match="unknown capacity parts: speed"):
        BenchConfig.build(sections=("capacity",), output=Path("x"), capacity_parts=("speed",))


def test_cpu_is_reported_per_thousand_chunks() -> None:
    assert cpu_s_per_thousand(12.5, 500) == 25.0
    assert cpu_s_per_thousand(0.123, 1_000) == 0.12
    assert cpu_s_per_thousand(1.0, 0) is None


def test_the_embedded_texts_repeat_the_chunks_in_order() -> None:
    assert cycled(["a", "b", "c"], 7) == ["a", "b", "c", "a", "b", "c", "a"]
    assert cycled(["a", "b", "c"], 2) == ["a", "b"]
    assert cycled([], 5) == []


def test_a_share_of_the_reference_topics_is_a_prefix_of_them() -> None:
    whole, fifth = topics_text(), topics_text(0.2)
    assert whole.startswith(fifth) and len(fifth) < len(whole) / 2
    assert whole.count("\n## ") > 50  # one heading per topic
    assert topics_text(0.0).startswith("## ")  # never empty


def test_server_memory_grows_per_100k_chunks_from_its_empty_size() -> None:
    assert mb_per_100k_chunks(baseline_mb=40.0, rss_mb=340.0, chunks=50_000) == 600.0
    assert mb_per_100k_chunks(baseline_mb=40.0, rss_mb=90.0, chunks=100_000) == 50.0
    assert mb_per_100k_chunks(baseline_mb=40.0, rss_mb=90.0, chunks=0) is None


def test_memory_per_guru_is_the_slope_from_the_first_level_to_the_last() -> None:
    assert mb_per_guru([(1, 110.0), (20, 1_060.0), (100, 5_060.0)]) == 50.0
    assert mb_per_guru([(1, 110.0)]) is None
    assert mb_per_guru([(5, 110.0), (5, 120.0)]) is None


def test_the_summary_compares_each_service_wire_and_worker_with_in_process() -> None:
    embedding = [
        {"embedder": "local, in the worker", "chunks_per_s": 60.0,
         "worker_cpu_s_per_1000_chunks": 30.0},
        {"embedder": "openai over HTTP", "chunks_per_s": 54.0, "worker_cpu_s_per_1000_chunks": 0.6},
        {"embedder": "tei over HTTP", "chunks_per_s": 48.0, "worker_cpu_s_per_1000_chunks": 1.5},
    ]  # fmt: skip
    workers = [
        {"rss_mb": 1_200.0, "cpu_s_per_1000_chunks": 40.0},
        {"rss_mb": 350.0, "cpu_s_per_1000_chunks": 8.0},
    ]
    assert embedder_summary(embedding, workers) == {
        "openai_rate_vs_in_process": 0.9,
        "openai_worker_cpu_share": 0.02,
        "tei_rate_vs_in_process": 0.8,
        "tei_worker_cpu_share": 0.05,
        "worker_rss_saved_mb": 850.0,
        "worker_cpu_share_end_to_end": 0.2,
    }
    assert embedder_summary(embedding[:1], workers[:1]) == {}


def test_process_memory_is_read_from_proc_status() -> None:
    assert proc_status_mb("VmRSS") > 1
    assert proc_status_mb("VmHWM", os.getpid()) >= proc_status_mb("VmRSS", os.getpid())
    assert proc_status_mb("VmRSS", 2**22 + 1) == 0.0  # above pid_max: no such process


class _LengthEmbedder:
    """Stands in for the model where only the service's dealing is under test: a text's vector
    is its length, and each call is recorded."""

    workers = 2

    def __init__(self) -> None:
        self.calls: list[list[str]] = []

    def embed_documents(self, texts: list[str]) -> list[list[float]]:
        self.calls.append(list(texts))
        return [[float(len(text))] for text in texts]


def test_the_service_deals_a_request_over_every_replica_and_keeps_its_order() -> None:
    from benchmarks.embed_server import SpreadEncoder

    model = _LengthEmbedder()
    texts = ["x" * n for n in (3, 1, 4, 1, 5, 9, 2, 6)]
    assert SpreadEncoder(model).embed(texts) == [[float(len(t))] for t in texts]  # type: ignore[arg-type]
    # Two shares of four, longest first round-robin: each replica gets as much text.
    shares = sorted([len(t) for t in call] for call in model.calls)  # in whichever order ran
    assert shares == [[6, 4, 2, 1], [9, 5, 3, 1]]
    model.calls.clear()
    SpreadEncoder(model).embed(["x"] * 128)  # type: ignore[arg-type]
    assert [len(call) for call in model.calls] == [32] * 4  # never more than a replica's batch


@pytest.mark.slow
def test_the_embedding_service_returns_the_local_models_vectors_on_both_wires(settings) -> None:
    from benchmarks.embed_server import MODEL, build_server
    from openguru.providers.embeddings.factory import build_embedder
    from openguru.providers.embeddings.local import SentenceTransformerEmbedder

    local = SentenceTransformerEmbedder(model_name=MODEL, query_backend="torch", workers=1)
    server = build_server(local, port=0)
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    url = f"http://127.0.0.1:{server.server_address[1]}"
    texts = ["How do I open a file?", "A for statement iterates over the items of a sequence."]
    try:
        expected = np.array(local.embed_documents(texts))
        for wire, address in (("openai", f"{url}/v1"), ("tei", url)):
            settings.EMBED_API_URL = address
            remote = build_embedder(wire, MODEL)
            assert np.allclose(remote.embed_documents(texts), expected, atol=1e-5), wire
            assert remote.dimension == 384
        assert remote.max_input_tokens == local.max_input_tokens  # TEI reads it from /info
    finally:
        server.shutdown()
        server.server_close()

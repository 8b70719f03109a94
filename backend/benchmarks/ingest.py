"""Section 1 — ingestion: end-to-end chunks/s of the real processing path on a real site, the raw
embedder's chunks/s on the same chunk texts, and a re-index of the unchanged site."""

import time
from collections.abc import Callable, Sequence
from typing import Any

from django.conf import settings
from openguru.providers.embeddings.base import Embedder
from openguru.providers.embeddings.factory import get_embedder
from openguru.sources.chunking import default_chunk_size
from openguru.sources.indexing import BATCH_SIZE as INDEX_BATCH_SIZE

from benchmarks.collection import evenly_spaced, source_chunks
from benchmarks.config import SiteScope
from benchmarks.docs_guru import create_guru, index_again, index_first_time
from benchmarks.stats import per_second, ratio

RAW_BATCH = INDEX_BATCH_SIZE


def run_ingest(
    *, site_url: str, scope: SiteScope, raw_sample: int, log: Callable[[str], None]
) -> dict[str, Any]:
    """Needs a fresh database and vector store (the first index must really embed)."""
    embedder = get_embedder()
    guru = create_guru()  # loads the model: kept out of the timed part
    log(f"ingest: indexing the docs ({scope.label}, max_pages={scope.max_pages})")
    source, first = index_first_time(guru, site_url=site_url, scope=scope)
    chunks = int(first.result["chunks_total"])
    e2e = per_second(chunks, first.seconds)
    log(f"ingest: {chunks} chunks in {first.seconds:.1f}s = {e2e} chunks/s end to end")

    stored = source_chunks(collection=guru.collection_name, source_id=source.pk)
    texts = [chunk.text for chunk in stored]
    sample = evenly_spaced(texts, raw_sample)
    raw = raw_embedding_rate(embedder, sample)
    log(f"ingest: raw embedder {raw} chunks/s on {len(sample)} of those chunks")

    log("ingest: re-indexing the unchanged site")
    again = index_again(source)
    log(f"ingest: re-index took {again.seconds:.1f}s, {again.result['chunks_embedded']} embedded")
    return {
        "chunks_per_s": e2e,
        "embedder_chunks_per_s": raw,
        "ratio": ratio(e2e, raw),
        "reindex_unchanged_embeddings": int(again.result["chunks_embedded"]),
        "reindex_time_ratio": ratio(again.seconds, first.seconds),
        "pages": int(first.result["pages_fetched"]),
        "site": "python3.11-doc HTML (Debian package), crawled from index.html",
        "subset": scope.label,
        "chunks": chunks,
        "chunks_embedded": int(first.result["chunks_embedded"]),
        "first_index_s": round(first.seconds, 1),
        "reindex_s": round(again.seconds, 1),
        "raw_sample_chunks": len(sample),
        "mean_chunk_words": round(sum(len(t.split()) for t in texts) / max(len(texts), 1), 1),
        "chunk_size_tokens": settings.CHUNK_SIZE_TOKENS or default_chunk_size(embedder),
        "first_result": first.result,
        "reindex_result": again.result,
    }


def raw_embedding_rate(embedder: Embedder, texts: Sequence[str]) -> float | None:
    """Chunks/s of `embed_documents` alone, called as the pipeline calls it (the indexer's
    batch size), so the embedder's own batching and replicas count on both sides."""
    if not texts:
        return None
    embedder.embed_documents(list(texts[:RAW_BATCH]))  # warm: first calls allocate
    started = time.perf_counter()
    for start in range(0, len(texts), RAW_BATCH):
        embedder.embed_documents(list(texts[start : start + RAW_BATCH]))
    return per_second(len(texts), time.perf_counter() - started)

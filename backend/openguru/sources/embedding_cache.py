"""Embeddings keyed by (model, text hash): moved, repeated or re-crawled text is embedded once."""

from collections.abc import Sequence

import numpy as np

from openguru.providers.embeddings.base import Embedder
from openguru.sources.models import EmbeddingCacheEntry


def _to_bytes(vector: Sequence[float]) -> bytes:
    return np.asarray(vector, dtype="<f4").tobytes()


def _from_bytes(blob: bytes | memoryview) -> list[float]:
    return np.frombuffer(bytes(blob), dtype="<f4").astype(float).tolist()


def embeddings_get_or_compute(
    *, embedder: Embedder, texts: Sequence[str], text_hashes: Sequence[str]
) -> tuple[list[list[float]], int]:
    """Vectors for `texts` (same order) and how many had to be computed by the embedder."""
    model = embedder.model_name
    cached = {
        entry.text_hash: _from_bytes(entry.vector)
        for entry in EmbeddingCacheEntry.objects.filter(model=model, text_hash__in=set(text_hashes))
    }
    missing_at: dict[str, int] = {}
    for i, text_hash in enumerate(text_hashes):
        if text_hash not in cached:
            missing_at.setdefault(text_hash, i)
    if missing_at:
        vectors = embedder.embed_documents([texts[i] for i in missing_at.values()])
        for text_hash, vector in zip(missing_at, vectors, strict=True):
            cached[text_hash] = list(vector)
        _store(model=model, vectors={h: cached[h] for h in missing_at})
    return [cached[text_hash] for text_hash in text_hashes], len(missing_at)


def _store(*, model: str, vectors: dict[str, list[float]]) -> None:
    # Rows go in hash order: two writers inserting overlapping hashes in different orders
    # would each wait on a row lock the other holds (PostgreSQL reports a deadlock).
    EmbeddingCacheEntry.objects.bulk_create(
        [
            EmbeddingCacheEntry(
                model=model, text_hash=text_hash, vector=_to_bytes(vectors[text_hash])
            )
            for text_hash in sorted(vectors)
        ],
        ignore_conflicts=True,
    )


def cached_vectors(*, model: str, text_hashes: Sequence[str]) -> dict[str, np.ndarray]:
    """Vectors already computed for these hashes (those never embedded are absent)."""
    entries = EmbeddingCacheEntry.objects.filter(model=model, text_hash__in=set(text_hashes))
    return {e.text_hash: np.frombuffer(bytes(e.vector), dtype="<f4") for e in entries}

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
    missing = [i for i, text_hash in enumerate(text_hashes) if text_hash not in cached]
    if missing:
        vectors = embedder.embed_documents([texts[i] for i in missing])
        new_entries = []
        for i, vector in zip(missing, vectors, strict=True):
            cached[text_hashes[i]] = list(vector)
            new_entries.append(
                EmbeddingCacheEntry(model=model, text_hash=text_hashes[i], vector=_to_bytes(vector))
            )
        EmbeddingCacheEntry.objects.bulk_create(new_entries, ignore_conflicts=True)
    return [cached[text_hash] for text_hash in text_hashes], len(missing)


def cached_vectors(*, model: str, text_hashes: Sequence[str]) -> dict[str, np.ndarray]:
    """Vectors already computed for these hashes (those never embedded are absent)."""
    entries = EmbeddingCacheEntry.objects.filter(model=model, text_hash__in=set(text_hashes))
    return {e.text_hash: np.frombuffer(bytes(e.vector), dtype="<f4") for e in entries}

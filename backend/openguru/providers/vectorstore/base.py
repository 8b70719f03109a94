"""The vector store interface: one collection per guru, addressed by the guru's collection name
(in Milvus, a collection of its own or the guru's rows in a shared one: VECTOR_LAYOUT).

Every field a query filters or deletes on (source id, chunk hash, type) is a top-level scalar
field; the JSON `metadata` is only returned, never filtered (filters on JSON cost seconds).
"""

from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any, Protocol, runtime_checkable

# Reciprocal-rank fusion's constant (Cormack, Clarke & Buettcher, SIGIR 2009): a hit at rank r
# adds 1 / (RRF_K + r). One value for the answer engine's fusion and a store's own hybrid search.
RRF_K = 60


@dataclass(frozen=True)
class ChunkRecord:
    id: str
    vector: Sequence[float]
    text: str
    source_id: int
    chunk_hash: str
    type: str  # "text" | "code" | "faq" ...
    metadata: dict[str, Any] = field(default_factory=dict)  # title, link, heading path, page...


@dataclass(frozen=True)
class SearchHit:
    id: str
    text: str
    source_id: int
    chunk_hash: str
    type: str
    metadata: dict[str, Any]
    score: float  # dense: cosine similarity; bm25: BM25 score (>0); hybrid: RRF score


@dataclass(frozen=True)
class SearchFilter:
    source_ids: Sequence[int] | None = None
    types: Sequence[str] | None = None


@runtime_checkable
class VectorStore(Protocol):
    def ping(self) -> None:
        """Raise if the store cannot be reached."""
        ...

    def has_collection(self, name: str) -> bool: ...

    def create_collection(self, name: str, *, dimension: int) -> None:
        """Idempotent."""
        ...

    def drop_collection(self, name: str) -> None:
        """Idempotent."""
        ...

    def rename_collection(self, old: str, new: str) -> None: ...

    @property
    def bm25_analyzer(self) -> str:
        """The BM25 analyzer new collections are created with (MILVUS_BM25_ANALYZER)."""
        ...

    def collection_analyzer(self, name: str) -> str:
        """The BM25 analyzer `name` was created with: a collection keeps it for life."""
        ...

    def copy_collection(self, old: str, new: str) -> None:
        """Copy `old` into a new collection `new` created with the configured analyzer.

        Vectors are copied as they are and BM25 terms recomputed, so no embedding is needed;
        `old` is left untouched for the caller to drop.
        """
        ...

    def upsert(self, name: str, chunks: Sequence[ChunkRecord]) -> None: ...

    def delete(
        self, name: str, *, source_id: int, chunk_hashes: Sequence[str] | None = None
    ) -> int:
        """Delete a source's chunks (all, or only those hashes); returns how many were deleted."""
        ...

    def chunk_hashes(self, name: str, *, source_id: int) -> set[str]: ...

    def count(self, name: str, *, source_id: int | None = None) -> int: ...

    def chunks_by_id(self, name: str, ids: Sequence[str]) -> list[SearchHit]:
        """The chunks with these ids (score 0), in the order asked; ids not stored are left out,
        and a missing collection holds none."""
        ...

    def source_chunks(self, name: str, *, source_id: int, limit: int) -> list[SearchHit]:
        """Up to `limit` chunks of a source (score 0), in no particular order."""
        ...

    def search_dense(
        self, name: str, vector: Sequence[float], *, limit: int, where: SearchFilter | None = None
    ) -> list[SearchHit]: ...

    def search_bm25(
        self, name: str, text: str, *, limit: int, where: SearchFilter | None = None
    ) -> list[SearchHit]: ...

    def search_hybrid(
        self,
        name: str,
        vector: Sequence[float],
        text: str,
        *,
        limit: int,
        where: SearchFilter | None = None,
    ) -> list[SearchHit]:
        """Dense + BM25, each with the filter, fused with reciprocal-rank fusion (hybrid.py)."""
        ...


@runtime_checkable
class LayoutMigration(Protocol):
    """A store whose gurus share collections (VECTOR_LAYOUT=shared) and that still serves the
    collections of their own the per-guru layout made, until each is moved."""

    def collection_layout(self, name: str) -> str | None:
        """ "shared", "per_guru" (a collection of its own, not moved yet) or None (no such)."""
        ...

    def adopt_collection(self, name: str) -> int:
        """Copy a collection of its own into the shared one and serve it from there; returns
        how many chunks moved. The own collection keeps serving readers that found it before."""
        ...

    def drop_own_collection(self, name: str) -> None:
        """Drop the collection of its own of a name already moved."""
        ...

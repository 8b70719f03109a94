"""An in-process vector store: the Milvus store's behaviour (cosine search, BM25 over analyzed
text, reciprocal-rank hybrid, the same filters and row limits) held in numpy arrays and dicts.

For tests and the fast lane (`VECTOR_STORE=memory`): nothing is written to disk, and each
process has its own collections, so the web process and the workers of `make run` could not
share it. BM25 follows Milvus's: Snowball English stemming under the "english" analyzer,
k1 = 1.2, b = 0.75, IDF = ln(1 + (N - df + 0.5) / (df + 0.5)), statistics over the stored rows.
"""

import copy
import functools
import math
import re
import threading
from collections import Counter
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass, field
from typing import Any

import numpy as np
import snowballstemmer

from openguru.core.errors import DomainError, ErrorCode
from openguru.providers.vectorstore.base import ChunkRecord, SearchFilter, SearchHit
from openguru.providers.vectorstore.bm25_analyzers import (
    DEFAULT_BM25_ANALYZER,
    bm25_analyzer_params,
)
from openguru.providers.vectorstore.hybrid import fused_search
from openguru.providers.vectorstore.milvus_rows import chunk_row

BM25_K1 = 1.2
BM25_B = 0.75
_WORD = re.compile(r"\w+")

Analyzer = Callable[[str], list[str]]


def analyzer_for(name: str) -> Analyzer:
    """Text to BM25 terms: words, lowercased, stemmed when the analyzer says so."""
    params = bm25_analyzer_params(name)
    stems = params is not None and any(
        isinstance(f, dict) and f.get("type") == "stemmer" for f in params.get("filter", [])
    )
    if not stems:
        return lambda text: _WORD.findall(text.lower())
    stem = functools.lru_cache(maxsize=65_536)(snowballstemmer.stemmer("english").stemWord)
    return lambda text: [stem(word) for word in _WORD.findall(text.lower())]


@dataclass
class _Row:
    record: dict[str, Any]  # the Milvus row: same checks, same truncated text
    vector: np.ndarray  # unit length, for cosine as a dot product
    terms: Counter[str]
    length: int  # terms in the text, BM25's document length


@dataclass
class _Collection:
    dimension: int
    analyzer: str  # fixed at creation, as a Milvus collection keeps its analyzer
    analyze: Analyzer
    rows: dict[str, _Row] = field(default_factory=dict)
    postings: dict[str, dict[str, int]] = field(default_factory=dict)  # term -> row id -> tf
    total_terms: int = 0

    def put(self, row: _Row) -> None:
        self.remove(row.record["id"])
        self.rows[row.record["id"]] = row
        for term, tf in row.terms.items():
            self.postings.setdefault(term, {})[row.record["id"]] = tf
        self.total_terms += row.length

    def remove(self, row_id: str) -> None:
        row = self.rows.pop(row_id, None)
        if row is None:
            return
        for term in row.terms:
            posting = self.postings[term]
            del posting[row_id]
            if not posting:
                del self.postings[term]
        self.total_terms -= row.length


def _matches(row: _Row, where: SearchFilter | None) -> bool:
    if where is None:
        return True
    if where.source_ids is not None and row.record["source_id"] not in set(where.source_ids):
        return False
    return where.types is None or row.record["type"] in set(where.types)


def _hit(row: _Row, score: float) -> SearchHit:
    record = row.record
    return SearchHit(
        id=record["id"],
        text=record["text"],
        source_id=record["source_id"],
        chunk_hash=record["chunk_hash"],
        type=record["type"],
        metadata=copy.deepcopy(record["metadata"]),
        score=score,
    )


def _unit(vector: Sequence[float], dimension: int) -> np.ndarray:
    array = np.asarray(vector, dtype=np.float32)
    if array.shape != (dimension,):
        msg = f"Expected a {dimension}-d vector, got {array.shape[0] if array.ndim else 0}-d."
        raise DomainError(ErrorCode.INVALID_INPUT, msg)
    norm = float(np.linalg.norm(array))
    return array / norm if norm else array


class MemoryVectorStore:
    def __init__(
        self,
        *,
        bm25_analyzer: str = DEFAULT_BM25_ANALYZER,
        shared_with: "MemoryVectorStore | None" = None,
    ) -> None:
        # For collections created from now on.
        self._analyzer = bm25_analyzer
        self._analyze = analyzer_for(bm25_analyzer)
        # `shared_with`: the other store's collections, as two processes configured apart see
        # one Milvus server (how a store meets collections made under another analyzer).
        self._collections: dict[str, _Collection] = (
            {} if shared_with is None else shared_with._collections
        )
        self._lock: threading.RLock = (
            threading.RLock() if shared_with is None else shared_with._lock
        )

    def ping(self) -> None:
        return None

    # -- collections --------------------------------------------------------------------------

    def has_collection(self, name: str) -> bool:
        with self._lock:
            return name in self._collections

    def create_collection(self, name: str, *, dimension: int) -> None:
        with self._lock:
            existing = self._collections.get(name)
            if existing is None:
                self._collections[name] = self._new_collection(dimension)
            elif existing.dimension != dimension:
                msg = (
                    f"Collection '{name}' holds {existing.dimension}-d vectors, not {dimension}-d."
                )
                raise DomainError(ErrorCode.CONFLICT, msg)

    def drop_collection(self, name: str) -> None:
        with self._lock:
            self._collections.pop(name, None)

    def rename_collection(self, old: str, new: str) -> None:
        with self._lock:
            if old not in self._collections:
                raise DomainError(ErrorCode.NOT_FOUND, f"Collection '{old}' does not exist.")
            if new in self._collections:
                raise DomainError(ErrorCode.CONFLICT, f"Collection '{new}' already exists.")
            self._collections[new] = self._collections.pop(old)

    @property
    def bm25_analyzer(self) -> str:
        return self._analyzer

    def collection_analyzer(self, name: str) -> str:
        with self._lock:
            return self._existing(name).analyzer

    def copy_collection(self, old: str, new: str) -> None:
        with self._lock:
            source = self._existing(old)
            if new in self._collections:
                raise DomainError(ErrorCode.CONFLICT, f"Collection '{new}' already exists.")
            target = self._new_collection(source.dimension)
            for row in source.rows.values():
                # The vector as it is (already unit length); the text analyzed afresh.
                terms = target.analyze(row.record["text"])
                record = {**row.record, "metadata": copy.deepcopy(row.record["metadata"])}
                target.put(_Row(record, row.vector.copy(), Counter(terms), len(terms)))
            self._collections[new] = target

    def _new_collection(self, dimension: int) -> _Collection:
        return _Collection(dimension, self._analyzer, self._analyze)

    def _existing(self, name: str) -> _Collection:
        collection = self._collections.get(name)
        if collection is None:
            raise DomainError(ErrorCode.NOT_FOUND, f"Collection '{name}' does not exist.")
        return collection

    # -- writes -------------------------------------------------------------------------------

    def upsert(self, name: str, chunks: Sequence[ChunkRecord]) -> None:
        with self._lock:
            collection = self._collections.get(name)
            if collection is None:
                raise DomainError(ErrorCode.NOT_FOUND, f"Collection '{name}' does not exist.")
            rows = [self._row(collection, chunk) for chunk in chunks]  # all checked, then stored
            for row in rows:
                collection.put(row)

    @staticmethod
    def _row(collection: _Collection, chunk: ChunkRecord) -> _Row:
        record = chunk_row(chunk)
        record["metadata"] = copy.deepcopy(record["metadata"])
        terms = collection.analyze(record["text"])
        return _Row(
            record=record,
            vector=_unit(record.pop("vector"), collection.dimension),
            terms=Counter(terms),
            length=len(terms),
        )

    def delete(
        self, name: str, *, source_id: int, chunk_hashes: Sequence[str] | None = None
    ) -> int:
        hashes = None if chunk_hashes is None else set(chunk_hashes)
        with self._lock:
            collection = self._collections.get(name)
            if collection is None:
                return 0
            doomed = [
                row_id
                for row_id, row in collection.rows.items()
                if row.record["source_id"] == source_id
                and (hashes is None or row.record["chunk_hash"] in hashes)
            ]
            for row_id in doomed:
                collection.remove(row_id)
            return len(doomed)

    # -- reads --------------------------------------------------------------------------------

    def _rows(self, name: str, where: SearchFilter | None = None) -> list[_Row]:
        """A snapshot of the matching rows (searches then run without the lock)."""
        with self._lock:
            collection = self._collections.get(name)
            rows = list(collection.rows.values()) if collection is not None else []
        return [row for row in rows if _matches(row, where)]

    def chunk_hashes(self, name: str, *, source_id: int) -> set[str]:
        where = SearchFilter(source_ids=[source_id])
        return {row.record["chunk_hash"] for row in self._rows(name, where)}

    def count(self, name: str, *, source_id: int | None = None) -> int:
        where = None if source_id is None else SearchFilter(source_ids=[source_id])
        return len(self._rows(name, where))

    def chunks_by_id(self, name: str, ids: Sequence[str]) -> list[SearchHit]:
        with self._lock:
            collection = self._collections.get(name)
            stored = collection.rows if collection is not None else {}
            rows = [stored[i] for i in dict.fromkeys(ids) if i in stored]
        return [_hit(row, 0.0) for row in rows]

    def source_chunks(self, name: str, *, source_id: int, limit: int) -> list[SearchHit]:
        rows = self._rows(name, SearchFilter(source_ids=[source_id]))
        return [_hit(row, 0.0) for row in rows[: max(limit, 0)]]

    def search_dense(
        self, name: str, vector: Sequence[float], *, limit: int, where: SearchFilter | None = None
    ) -> list[SearchHit]:
        rows = self._rows(name, where)
        if not rows or limit <= 0:
            return []
        query = _unit(vector, rows[0].vector.shape[0])
        scores = np.stack([row.vector for row in rows]) @ query
        order = np.argsort(-scores, kind="stable")[:limit]
        return [_hit(rows[i], float(scores[i])) for i in order]

    def search_bm25(
        self, name: str, text: str, *, limit: int, where: SearchFilter | None = None
    ) -> list[SearchHit]:
        with self._lock:
            collection = self._collections.get(name)
            if collection is None or not collection.rows or limit <= 0:
                return []
            scores = self._bm25_scores(collection, collection.analyze(text))
            rows = {row_id: collection.rows[row_id] for row_id in scores}
        ranked = sorted(
            (row_id for row_id in scores if _matches(rows[row_id], where)),
            key=lambda row_id: (-scores[row_id], row_id),
        )
        return [_hit(rows[row_id], scores[row_id]) for row_id in ranked[:limit]]

    @staticmethod
    def _bm25_scores(collection: _Collection, query_terms: Iterable[str]) -> dict[str, float]:
        total = len(collection.rows)
        mean_length = collection.total_terms / total or 1.0
        scores: dict[str, float] = {}
        for term, weight in Counter(query_terms).items():
            posting = collection.postings.get(term, {})
            idf = math.log(1 + (total - len(posting) + 0.5) / (len(posting) + 0.5))
            for row_id, tf in posting.items():
                length = collection.rows[row_id].length
                norm = BM25_K1 * (1 - BM25_B + BM25_B * length / mean_length)
                gain = weight * idf * tf * (BM25_K1 + 1) / (tf + norm)
                scores[row_id] = scores.get(row_id, 0.0) + gain
        return scores

    def search_hybrid(
        self,
        name: str,
        vector: Sequence[float],
        text: str,
        *,
        limit: int,
        where: SearchFilter | None = None,
    ) -> list[SearchHit]:
        return fused_search(self, name, vector, text, limit=limit, where=where)

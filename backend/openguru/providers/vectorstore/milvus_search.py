"""The searches of the Milvus vector store (dense, BM25 and hybrid), kept apart from its
collections and writes in milvus.py."""

from collections.abc import Iterator, Sequence
from contextlib import AbstractContextManager, contextmanager
from typing import Any

from pymilvus import MilvusClient, RRFRanker

from openguru.core.errors import DomainError, ErrorCode
from openguru.providers.vectorstore.base import RRF_K, SearchFilter, SearchHit
from openguru.providers.vectorstore.hybrid import (
    fused_search,
    hybrid_candidates,
    ties_to_smaller_id,
)
from openguru.providers.vectorstore.milvus_errors import unless_missing
from openguru.providers.vectorstore.milvus_expressions import filter_expression, hybrid_requests
from openguru.providers.vectorstore.milvus_rows import float_list, search_hit
from openguru.providers.vectorstore.milvus_scope import Scope

# Milvus caps topK and offset + limit of a query at 16384.
MAX_TOP_K = 16_384

# Queries that drive incremental indexing and counts must see the previous write.
STRONG = "Strong"
# Searches too, so an answer right after indexing sees the new chunks. Measured on Milvus Lite
# 2.5.1 (20k chunks, 300 interleaved queries each): Strong vs Bounded p50 9.3 vs 9.2 ms dense,
# 2.2 vs 2.3 ms BM25, 11.4 vs 13.0 ms hybrid, i.e. no measurable cost. (A Milvus server may
# make a Strong search wait up to one time tick, ~200 ms by default, under write load.)
SEARCH_CONSISTENCY = STRONG

OUTPUT_FIELDS = ["text", "source_id", "chunk_hash", "type", "metadata"]


class MilvusSearches:
    """Mixed into MilvusVectorStore, which provides what is declared here."""

    _search_timeout: int

    @property
    def _client(self) -> MilvusClient:
        raise NotImplementedError

    def _translated(self, action: str) -> AbstractContextManager[None]:
        raise NotImplementedError

    def _scope(self, name: str) -> Scope:
        raise NotImplementedError

    def count(self, name: str, *, source_id: int | None = None) -> int:
        raise NotImplementedError

    def search_dense(
        self, name: str, vector: Sequence[float], *, limit: int, where: SearchFilter | None = None
    ) -> list[SearchHit]:
        return self._search(
            name, [float_list(vector)], field="vector", metric="COSINE", limit=limit, where=where
        )

    def search_bm25(
        self, name: str, text: str, *, limit: int, where: SearchFilter | None = None
    ) -> list[SearchHit]:
        if not text.strip():
            return []
        with self._nothing_when_empty(name):
            return self._search(
                name, [text], field="sparse", metric="BM25", limit=limit, where=where
            )
        return []

    @contextmanager
    def _nothing_when_empty(self, name: str) -> Iterator[None]:
        """Milvus derives BM25's statistics from the stored rows; with none (a new guru asked
        before its first source is indexed) the search fails on 0/0 instead of finding nothing.
        Only a failed search pays for the row count that tells the two apart."""
        try:
            yield
        except DomainError as error:
            if error.code != ErrorCode.PROVIDER_ERROR or self.count(name) > 0:
                raise

    def _search(
        self,
        name: str,
        data: list[Any],
        *,
        field: str,
        metric: str,
        limit: int,
        where: SearchFilter | None,
    ) -> list[SearchHit]:
        expr = filter_expression(where)
        if expr is None or limit <= 0:
            return []
        scope = self._scope(name)
        with unless_missing(), self._translated("search"):
            results = self._client.search(
                scope.collection,
                data=data,
                anns_field=field,
                filter=scope.where(expr),
                limit=min(limit, MAX_TOP_K),
                output_fields=OUTPUT_FIELDS,
                search_params={"metric_type": metric},
                consistency_level=SEARCH_CONSISTENCY,
                timeout=self._search_timeout,
            )
            return [scope.hit(search_hit(raw, bm25=metric == "BM25")) for raw in results[0]]
        return []

    def search_hybrid(
        self,
        name: str,
        vector: Sequence[float],
        text: str,
        *,
        limit: int,
        where: SearchFilter | None = None,
    ) -> list[SearchHit]:
        limit = min(limit, MAX_TOP_K)
        scope = self._scope(name)
        if scope.tenant is not None:  # rows in a shared collection: see hybrid.py
            return fused_search(self, name, vector, text, limit=limit, where=where)
        expr = filter_expression(where)
        if expr is None or limit <= 0:
            return []
        candidates = min(hybrid_candidates(limit), MAX_TOP_K)
        requests = hybrid_requests(vector, text, candidates=candidates, expr=expr)
        with unless_missing(), self._nothing_when_empty(name), self._translated("search"):
            results = self._client.hybrid_search(
                scope.collection,
                requests,
                RRFRanker(RRF_K),
                limit=limit,
                output_fields=OUTPUT_FIELDS,
                consistency_level=SEARCH_CONSISTENCY,
                timeout=self._search_timeout,
            )
            return ties_to_smaller_id([search_hit(raw) for raw in results[0]])
        return []

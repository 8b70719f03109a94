"""Milvus implementation of the vector store: one collection per guru, dense + BM25 in each row.

Works against a Milvus server (2.5+, the first with BM25 functions) and against the embedded
Milvus Lite engine served on a loopback port (`lite_server.py`). Every difference between the
two is handled here and explained where it is. The collection layout is in `milvus_schema.py`,
row conversion in `milvus_rows.py`, expressions in `milvus_expressions.py` and error translation
in `milvus_errors.py`.
"""

import operator
from collections.abc import Iterator, Sequence
from contextlib import AbstractContextManager, contextmanager
from typing import Any

import grpc
from pymilvus import MilvusClient, RRFRanker

from openguru.core.errors import DomainError, ErrorCode
from openguru.providers.vectorstore.base import RRF_K, ChunkRecord, SearchFilter, SearchHit
from openguru.providers.vectorstore.bm25_analyzers import (
    DEFAULT_BM25_ANALYZER,
    bm25_analyzer_name,
    bm25_analyzer_params,
)
from openguru.providers.vectorstore.milvus_connection import MilvusConnection
from openguru.providers.vectorstore.milvus_errors import status_code, unless_missing
from openguru.providers.vectorstore.milvus_expressions import (
    filter_expression,
    hybrid_requests,
    ids_after,
    string_list,
)
from openguru.providers.vectorstore.milvus_rows import (
    deleted_count,
    float_list,
    search_hit,
    slices,
    stored_hit,
    upsert_batches,
    upsert_rows,
)
from openguru.providers.vectorstore.milvus_schema import (
    collection_schema,
    index_params,
    text_analyzer_params,
    vector_dimension,
)

# Milvus caps topK and offset + limit of a query at 16384.
_MAX_TOP_K = 16_384
_QUERY_PAGE = 10_000
_COPY_PAGE = 1_000  # rows with vectors and texts up to 64 KB: a smaller page bounds memory
# A hash list becomes one `in [...]` expression per batch: keeps each expression small.
_ID_BATCH = 1_000  # ids per request (deletes, lookups by id)
# Hybrid search fuses each ranking's candidates: fetching more than `limit` from each lets a
# chunk that is, say, 15th by vector but 1st by keywords still reach the fused top 10.
_HYBRID_CANDIDATES_FACTOR = 2
_HYBRID_MIN_CANDIDATES = 20

# Queries that drive incremental indexing and counts must see the previous write.
_STRONG = "Strong"
# Searches too, so an answer right after indexing sees the new chunks. Measured on Milvus Lite
# 2.5.1 (20k chunks, 300 interleaved queries each): Strong vs Bounded p50 9.3 vs 9.2 ms dense,
# 2.2 vs 2.3 ms BM25, 11.4 vs 13.0 ms hybrid, i.e. no measurable cost. (A Milvus server may
# make a Strong search wait up to one time tick, ~200 ms by default, under write load.)
_SEARCH_CONSISTENCY = _STRONG

_OUTPUT_FIELDS = ["text", "source_id", "chunk_hash", "type", "metadata"]
_COPIED_FIELDS = ["vector", *_OUTPUT_FIELDS]  # all but the BM25 output, which Milvus computes


class MilvusVectorStore:
    def __init__(
        self,
        *,
        uri: str,
        token: str | None = None,
        timeout_seconds: int = 30,
        search_timeout_seconds: int = 5,
        bm25_analyzer: str = DEFAULT_BM25_ANALYZER,
    ) -> None:
        # For collections created from now on; each existing one keeps its own.
        self._analyzer = bm25_analyzer
        self._analyzer_params = bm25_analyzer_params(bm25_analyzer)
        # pymilvus bounds its retry loop only by an *int* timeout; without one it retries an
        # unreachable server 75 times (about 3.5 minutes) before giving up.
        self._timeout = max(1, int(timeout_seconds))
        # Searches serve a waiting reader: a server that is down must fail them in seconds,
        # while writes (indexing, in the background) may wait out a slow server.
        self._search_timeout = max(1, int(search_timeout_seconds))
        self._connection = MilvusConnection(uri=uri, token=token or "", timeout=self._timeout)

    # -- connection ---------------------------------------------------------------------------

    @property
    def _client(self) -> MilvusClient:
        return self._connection.client

    def close(self) -> None:
        self._connection.close()

    def _translated(self, action: str) -> AbstractContextManager[None]:
        """Errors as ours; an unreachable server also renews the connection."""
        return self._connection.translated(action)

    def ping(self) -> None:
        with self._translated("reach the vector store"):
            self._client.list_collections(timeout=min(self._timeout, 5))

    # -- collections --------------------------------------------------------------------------

    def has_collection(self, name: str) -> bool:
        with self._translated("check a collection"):
            return bool(self._client.has_collection(name, timeout=self._timeout))

    def create_collection(self, name: str, *, dimension: int) -> None:
        self._create_collection(name, dimension=dimension, analyzer_params=self._analyzer_params)

    def _create_collection(
        self, name: str, *, dimension: int, analyzer_params: dict[str, Any] | None
    ) -> None:
        if self.has_collection(name):
            self._check_dimension(name, dimension)
            with self._translated("load a collection"):
                self._client.load_collection(name, timeout=self._timeout)
            return
        client = self._client
        with self._translated("create a collection"):
            client.create_collection(
                name,
                schema=collection_schema(client, dimension, analyzer_params=analyzer_params),
                consistency_level=_STRONG,
                timeout=self._timeout,
            )
            # The collection is empty, so its indexes are ready at once: pymilvus would still
            # poll each one with a 0.5 s sleep (2 s per collection), hence sync=False.
            client.create_index(name, index_params(client), timeout=self._timeout, sync=False)
            client.load_collection(name, timeout=self._timeout)

    def drop_collection(self, name: str) -> None:
        if not self.has_collection(name):
            return
        with unless_missing(), self._translated("drop a collection"):
            self._client.drop_collection(name, timeout=self._timeout)

    def rename_collection(self, old: str, new: str) -> None:
        self._check_copyable(old, new)
        if not self._rename_on_server(old, new):
            # Milvus Lite implements neither renames nor aliases: copy, then drop the old one.
            # A rename keeps the collection's analyzer.
            self._copy_collection(old, new, analyzer_params=self._analyzer_params_of(old))
            self.drop_collection(old)

    @property
    def bm25_analyzer(self) -> str:
        return self._analyzer

    def collection_analyzer(self, name: str) -> str:
        if not self.has_collection(name):
            raise DomainError(ErrorCode.NOT_FOUND, f"Collection '{name}' does not exist.")
        return bm25_analyzer_name(self._analyzer_params_of(name))

    def copy_collection(self, old: str, new: str) -> None:
        self._check_copyable(old, new)
        self._copy_collection(old, new, analyzer_params=self._analyzer_params)

    def _check_copyable(self, old: str, new: str) -> None:
        if not self.has_collection(old):
            raise DomainError(ErrorCode.NOT_FOUND, f"Collection '{old}' does not exist.")
        if self.has_collection(new):
            raise DomainError(ErrorCode.CONFLICT, f"Collection '{new}' already exists.")

    def _rename_on_server(self, old: str, new: str) -> bool:
        """False when the server does not implement renames."""
        with self._translated("rename a collection"):
            try:
                self._client.rename_collection(old, new, timeout=self._timeout)
            except grpc.RpcError as error:
                if status_code(error) == grpc.StatusCode.UNIMPLEMENTED:
                    return False
                raise
        return True

    def _copy_collection(
        self, old: str, new: str, *, analyzer_params: dict[str, Any] | None
    ) -> None:
        # Vectors are copied as they are; Milvus computes BM25 terms on insert, with `new`'s
        # analyzer.
        self._create_collection(
            new,
            dimension=vector_dimension(self._describe(old)),
            analyzer_params=analyzer_params,
        )
        # Milvus Lite fails to read vectors from a collection that was never written to.
        if self.count(old) == 0:
            return
        try:
            for page in self._pages(old, expr="", fields=_COPIED_FIELDS, size=_COPY_PAGE):
                for batch in upsert_batches(page):
                    with self._translated("copy a collection"):
                        self._client.insert(new, batch, timeout=self._timeout)
        except BaseException:
            self.drop_collection(new)
            raise

    def _describe(self, name: str) -> dict[str, Any]:
        with self._translated("describe a collection"):
            return dict(self._client.describe_collection(name, timeout=self._timeout))

    def _analyzer_params_of(self, name: str) -> dict[str, Any] | None:
        return text_analyzer_params(self._describe(name))

    def _check_dimension(self, name: str, dimension: int) -> None:
        existing = vector_dimension(self._describe(name))
        if existing != dimension:
            msg = f"Collection '{name}' holds {existing}-d vectors, not {dimension}-d."
            raise DomainError(ErrorCode.CONFLICT, msg)

    # -- writes -------------------------------------------------------------------------------

    def upsert(self, name: str, chunks: Sequence[ChunkRecord]) -> None:
        for batch in upsert_batches(upsert_rows(chunks)):
            with self._translated("store chunks"):
                self._client.upsert(name, batch, timeout=self._timeout)

    def delete(
        self, name: str, *, source_id: int, chunk_hashes: Sequence[str] | None = None
    ) -> int:
        source_expr = f"source_id == {operator.index(source_id)}"
        if chunk_hashes is None:
            return self._delete_where(name, source_expr)
        hashes = sorted(set(chunk_hashes))
        return sum(
            self._delete_where(name, f"{source_expr} and chunk_hash in {string_list(batch)}")
            for batch in slices(hashes, _ID_BATCH)
        )

    def _delete_where(self, name: str, expr: str) -> int:
        with unless_missing(), self._translated("delete chunks"):
            return deleted_count(self._client.delete(name, filter=expr, timeout=self._timeout))
        return 0

    # -- reads --------------------------------------------------------------------------------

    def chunk_hashes(self, name: str, *, source_id: int) -> set[str]:
        expr = f"source_id == {operator.index(source_id)}"
        hashes: set[str] = set()
        with unless_missing():
            for page in self._pages(name, expr=expr, fields=["chunk_hash"]):
                hashes.update(row["chunk_hash"] for row in page)
        return hashes

    def _pages(
        self, name: str, *, expr: str, fields: list[str], size: int = _QUERY_PAGE
    ) -> Iterator[list[dict[str, Any]]]:
        """All matching rows, a page at a time, paging by primary key: one query may not reach
        past 16384 rows, and a limited query returns the smallest keys first, in order."""
        last_id: str | None = None
        while True:
            conditions = [c for c in (expr, ids_after(last_id)) if c]
            with self._translated("read chunks"):
                page = self._client.query(
                    name,
                    filter=" and ".join(f"({c})" for c in conditions),
                    output_fields=["id", *fields],
                    limit=size,
                    consistency_level=_STRONG,
                    timeout=self._timeout,
                )
            if page:
                yield page
            if len(page) < size:
                return
            last_id = max(row["id"] for row in page)

    def source_chunks(self, name: str, *, source_id: int, limit: int) -> list[SearchHit]:
        expr = f"source_id == {operator.index(source_id)}"
        rows: list[dict[str, Any]] = []
        with unless_missing():
            for page in self._pages(name, expr=expr, fields=_OUTPUT_FIELDS):
                rows.extend(page)
                if len(rows) >= limit:
                    break
        return [stored_hit(row) for row in rows[:limit]]

    def chunks_by_id(self, name: str, ids: Sequence[str]) -> list[SearchHit]:
        wanted = list(dict.fromkeys(ids))
        rows: dict[str, dict[str, Any]] = {}
        with unless_missing(), self._translated("read chunks"):
            for batch in slices(wanted, _ID_BATCH):
                for row in self._client.get(
                    name,
                    ids=batch,
                    output_fields=_OUTPUT_FIELDS,
                    consistency_level=_STRONG,  # a chunk written just before is read back
                    timeout=self._timeout,
                ):
                    rows[row["id"]] = row
        return [stored_hit(rows[i]) for i in wanted if i in rows]

    def count(self, name: str, *, source_id: int | None = None) -> int:
        expr = "" if source_id is None else f"source_id == {operator.index(source_id)}"
        with unless_missing(), self._translated("count chunks"):
            rows = self._client.query(
                name,
                filter=expr,
                output_fields=["count(*)"],
                consistency_level=_STRONG,
                timeout=self._timeout,
            )
            return int(rows[0]["count(*)"])
        return 0

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
        with unless_missing(), self._translated("search"):
            results = self._client.search(
                name,
                data=data,
                anns_field=field,
                filter=expr,
                limit=min(limit, _MAX_TOP_K),
                output_fields=_OUTPUT_FIELDS,
                search_params={"metric_type": metric},
                consistency_level=_SEARCH_CONSISTENCY,
                timeout=self._search_timeout,
            )
            return [search_hit(raw, bm25=metric == "BM25") for raw in results[0]]
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
        expr = filter_expression(where)
        if expr is None or limit <= 0:
            return []
        limit = min(limit, _MAX_TOP_K)
        candidates = min(max(limit * _HYBRID_CANDIDATES_FACTOR, _HYBRID_MIN_CANDIDATES), _MAX_TOP_K)
        requests = hybrid_requests(vector, text, candidates=candidates, expr=expr)
        with unless_missing(), self._nothing_when_empty(name), self._translated("search"):
            results = self._client.hybrid_search(
                name,
                requests,
                RRFRanker(RRF_K),
                limit=limit,
                output_fields=_OUTPUT_FIELDS,
                consistency_level=_SEARCH_CONSISTENCY,
                timeout=self._search_timeout,
            )
            return [search_hit(raw) for raw in results[0]]
        return []

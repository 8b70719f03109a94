"""Milvus implementation of the vector store: one collection per guru, dense + BM25 in each row
(VECTOR_LAYOUT=per_guru; the shared layout in `milvus_shared.py` builds on it).

Works against a Milvus server (2.5+, the first with BM25 functions) and against the embedded
Milvus Lite engine served on a loopback port (`lite_server.py`). Every difference between the
two is handled here and explained where it is. The collection layout is in `milvus_schema.py`,
searches in `milvus_search.py`, where a name's rows live in `milvus_scope.py`, row conversion in
`milvus_rows.py`, expressions in `milvus_expressions.py` and error translation in
`milvus_errors.py`.
"""

import operator
from collections.abc import Iterator, Sequence
from contextlib import AbstractContextManager
from typing import Any

import grpc
from pymilvus import MilvusClient

from openguru.core.errors import DomainError, ErrorCode
from openguru.providers.vectorstore.base import ChunkRecord, SearchHit
from openguru.providers.vectorstore.bm25_analyzers import (
    DEFAULT_BM25_ANALYZER,
    bm25_analyzer_name,
    bm25_analyzer_params,
)
from openguru.providers.vectorstore.milvus_connection import MilvusConnection
from openguru.providers.vectorstore.milvus_errors import status_code, unless_missing
from openguru.providers.vectorstore.milvus_expressions import (
    ids_after,
    string_list,
)
from openguru.providers.vectorstore.milvus_rows import (
    deleted_count,
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
from openguru.providers.vectorstore.milvus_scope import Scope
from openguru.providers.vectorstore.milvus_search import (
    OUTPUT_FIELDS,
    STRONG,
    MilvusSearches,
)

_QUERY_PAGE = 10_000
_COPY_PAGE = 1_000  # rows with vectors and texts up to 64 KB: a smaller page bounds memory
# A hash list becomes one `in [...]` expression per batch: keeps each expression small.
_ID_BATCH = 1_000  # ids per request (deletes, lookups by id)
_COPIED_FIELDS = ["vector", *OUTPUT_FIELDS]  # all but the BM25 output, which Milvus computes


class MilvusVectorStore(MilvusSearches):
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
                consistency_level=STRONG,
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
        try:
            self._copy_rows(old, self._scope(new))
        except BaseException:
            self.drop_collection(new)
            raise

    def _copy_rows(self, old: str, target: Scope) -> None:
        # Milvus Lite fails to read vectors from a collection that was never written to.
        if self.count(old) == 0:
            return
        source = self._scope(old)
        for page in self._pages(old, expr="", fields=_COPIED_FIELDS, size=_COPY_PAGE):
            for batch in upsert_batches(target.rows(source.chunk_rows(page))):
                with self._translated("copy a collection"):
                    self._client.insert(target.collection, batch, timeout=self._timeout)

    def _scope(self, name: str) -> Scope:
        """Where `name`'s rows live: here, a collection of its own (see milvus_shared.py)."""
        return Scope(name)

    def _describe(self, name: str) -> dict[str, Any]:
        collection = self._scope(name).collection
        with self._translated("describe a collection"):
            return dict(self._client.describe_collection(collection, timeout=self._timeout))

    def _analyzer_params_of(self, name: str) -> dict[str, Any] | None:
        return text_analyzer_params(self._describe(name))

    def _check_dimension(self, name: str, dimension: int) -> None:
        existing = vector_dimension(self._describe(name))
        if existing != dimension:
            msg = f"Collection '{name}' holds {existing}-d vectors, not {dimension}-d."
            raise DomainError(ErrorCode.CONFLICT, msg)

    # -- writes -------------------------------------------------------------------------------

    def upsert(self, name: str, chunks: Sequence[ChunkRecord]) -> None:
        # Milvus Lite's upsert costs time in proportion to the rows already in the collection,
        # on every request (and a shared collection holds every guru's rows); its insert and a
        # lookup by key do not. So only rows replacing stored ones are upserted.
        scope = self._scope(name)
        for batch in upsert_batches(scope.rows(upsert_rows(chunks))):
            with self._translated("store chunks"):
                stored = self._stored_keys(scope.collection, [row["id"] for row in batch])
                new = [row for row in batch if row["id"] not in stored]
                replacing = [row for row in batch if row["id"] in stored]
                if new:
                    self._client.insert(scope.collection, new, timeout=self._timeout)
                if replacing:
                    self._client.upsert(scope.collection, replacing, timeout=self._timeout)

    def _stored_keys(self, collection: str, keys: list[str]) -> set[str]:
        rows = self._client.get(
            collection,
            ids=keys,
            output_fields=["id"],
            consistency_level=STRONG,  # a row written just before counts as stored
            timeout=self._timeout,
        )
        return {str(row["id"]) for row in rows}

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
        scope = self._scope(name)
        with unless_missing(), self._translated("delete chunks"):
            result = self._client.delete(
                scope.collection, filter=scope.where(expr), timeout=self._timeout
            )
            return deleted_count(result)
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
        scope = self._scope(name)
        while True:
            conditions = [c for c in (expr, ids_after(last_id)) if c]
            with self._translated("read chunks"):
                page = self._client.query(
                    scope.collection,
                    filter=scope.where(" and ".join(f"({c})" for c in conditions)),
                    output_fields=["id", *fields],
                    limit=size,
                    consistency_level=STRONG,
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
            for page in self._pages(name, expr=expr, fields=OUTPUT_FIELDS):
                rows.extend(page)
                if len(rows) >= limit:
                    break
        scope = self._scope(name)
        return [scope.hit(stored_hit(row)) for row in rows[:limit]]

    def chunks_by_id(self, name: str, ids: Sequence[str]) -> list[SearchHit]:
        wanted = list(dict.fromkeys(ids))
        rows: dict[str, dict[str, Any]] = {}
        scope = self._scope(name)
        with unless_missing(), self._translated("read chunks"):
            for batch in slices(wanted, _ID_BATCH):
                for row in self._client.get(
                    scope.collection,
                    ids=[scope.key(chunk_id) for chunk_id in batch],
                    output_fields=OUTPUT_FIELDS,
                    consistency_level=STRONG,  # a chunk written just before is read back
                    timeout=self._timeout,
                ):
                    rows[scope.chunk_id(row["id"])] = row
        return [scope.hit(stored_hit(rows[i])) for i in wanted if i in rows]

    def count(self, name: str, *, source_id: int | None = None) -> int:
        expr = "" if source_id is None else f"source_id == {operator.index(source_id)}"
        scope = self._scope(name)
        with unless_missing(), self._translated("count chunks"):
            rows = self._client.query(
                scope.collection,
                filter=scope.where(expr),
                output_fields=["count(*)"],
                consistency_level=STRONG,
                timeout=self._timeout,
            )
            return int(rows[0]["count(*)"])
        return 0

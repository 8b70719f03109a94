"""Milvus implementation of the vector store: one collection per guru, dense + BM25 in each row.

Works against a Milvus server (2.5+, the first with BM25 functions) and against the embedded
Milvus Lite engine served on a loopback port (`lite_server.py`). Every difference between the
two is handled here and explained where it is.
"""

import operator
import os
import threading
from collections.abc import Iterator, Sequence
from contextlib import AbstractContextManager, contextmanager, suppress
from typing import Any

import grpc
from pymilvus import (
    AnnSearchRequest,
    DataType,
    Function,
    FunctionType,
    MilvusClient,
    MilvusException,
    RRFRanker,
)

from openguru.core.errors import DomainError, ErrorCode, TransientError
from openguru.providers.vectorstore.base import ChunkRecord, SearchFilter, SearchHit

# VARCHAR limits count UTF-8 bytes. A Milvus server rejects longer values; Milvus Lite accepts
# them silently, so the limits are enforced here for both.
MAX_TEXT_BYTES = 65_535
MAX_ID_BYTES = 128
MAX_HASH_BYTES = 64
MAX_TYPE_BYTES = 16

# Milvus caps topK and offset + limit of a query at 16384.
_MAX_TOP_K = 16_384
_QUERY_PAGE = 10_000
_COPY_PAGE = 1_000  # rows with vectors and texts up to 64 KB: a smaller page bounds memory
# A hash list becomes one `in [...]` expression per batch: keeps each expression small.
_DELETE_BATCH = 1_000
# Measured on Milvus Lite 2.5.1 (2 busy cores, 120-word texts): 100 rows per request ~1,450
# rows/s, 500 and 2,000 both ~1,900-2,500 rows/s; BM25 is computed server-side on insert.
# The byte cap keeps a batch of 64 KB texts well below the server's request size limit.
_UPSERT_BATCH_ROWS = 500
_UPSERT_BATCH_BYTES = 16 * 1024 * 1024
# Hybrid search fuses each ranking's candidates: fetching more than `limit` from each lets a
# chunk that is, say, 15th by vector but 1st by keywords still reach the fused top 10.
_HYBRID_CANDIDATES_FACTOR = 2
_HYBRID_MIN_CANDIDATES = 20
_RRF_K = 60

# Queries that drive incremental indexing and counts must see the previous write.
_STRONG = "Strong"
# Searches too, so an answer right after indexing sees the new chunks. Measured on Milvus Lite
# 2.5.1 (20k chunks, 300 interleaved queries each): Strong vs Bounded p50 9.3 vs 9.2 ms dense,
# 2.2 vs 2.3 ms BM25, 11.4 vs 13.0 ms hybrid, i.e. no measurable cost. (A Milvus server may
# make a Strong search wait up to one time tick, ~200 ms by default, under write load.)
_SEARCH_CONSISTENCY = _STRONG

_OUTPUT_FIELDS = ["text", "source_id", "chunk_hash", "type", "metadata"]
_COPIED_FIELDS = ["vector", *_OUTPUT_FIELDS]  # all but the BM25 output, which Milvus computes

_TRANSIENT_GRPC_CODES = frozenset(
    {
        grpc.StatusCode.UNAVAILABLE,
        grpc.StatusCode.DEADLINE_EXCEEDED,
        grpc.StatusCode.RESOURCE_EXHAUSTED,
        grpc.StatusCode.ABORTED,
    }
)
# The Milvus server codes it marks retriable: 2 service unavailable (also pymilvus' "cannot
# connect"), 4 too many requests, 8 rate limit, 12 resources insufficient. (1, "not ready", is
# left out: pymilvus also uses it for its own argument errors.)
_TRANSIENT_MILVUS_CODES = frozenset({2, 4, 8, 12})
_COLLECTION_NOT_FOUND = 100


class MilvusVectorStore:
    def __init__(self, *, uri: str, token: str | None = None, timeout_seconds: int = 30) -> None:
        self._uri = uri
        self._token = token or ""
        # pymilvus bounds its retry loop only by an *int* timeout; without one it retries an
        # unreachable server 75 times (about 3.5 minutes) before giving up.
        self._timeout = max(1, int(timeout_seconds))
        self._lock = threading.Lock()
        self._connection: tuple[int, MilvusClient] | None = None

    # -- connection ---------------------------------------------------------------------------

    @property
    def _client(self) -> MilvusClient:
        """Created on first use, once per process: a gRPC channel does not survive a fork (Celery
        prefork workers), so a child process opens its own."""
        connection = self._connection
        pid = os.getpid()
        if connection is not None and connection[0] == pid:
            return connection[1]
        with self._lock:
            if self._connection is None or self._connection[0] != pid:
                with _translated_errors("connect"):
                    client = MilvusClient(
                        uri=self._uri,
                        token=self._token,
                        timeout=min(self._timeout, 10),  # connecting; calls pass their own
                        # pymilvus shares one connection per URI process-wide; our own alias
                        # keeps this store's channel (and `close`) to itself.
                        alias=f"openguru-{pid}-{id(self)}",
                    )
                self._connection = (pid, client)
            return self._connection[1]

    def close(self) -> None:
        with self._lock:
            if self._connection is not None and self._connection[0] == os.getpid():
                self._connection[1].close()
            self._connection = None

    def ping(self) -> None:
        with _translated_errors("reach the vector store"):
            self._client.list_collections(timeout=min(self._timeout, 5))

    # -- collections --------------------------------------------------------------------------

    def has_collection(self, name: str) -> bool:
        with _translated_errors("check a collection"):
            return bool(self._client.has_collection(name, timeout=self._timeout))

    def create_collection(self, name: str, *, dimension: int) -> None:
        if self.has_collection(name):
            self._check_dimension(name, dimension)
            with _translated_errors("load a collection"):
                self._client.load_collection(name, timeout=self._timeout)
            return
        client = self._client
        with _translated_errors("create a collection"):
            client.create_collection(
                name,
                schema=_collection_schema(client, dimension),
                consistency_level=_STRONG,
                timeout=self._timeout,
            )
            # The collection is empty, so its indexes are ready at once: pymilvus would still
            # poll each one with a 0.5 s sleep (2 s per collection), hence sync=False.
            client.create_index(name, _index_params(client), timeout=self._timeout, sync=False)
            client.load_collection(name, timeout=self._timeout)

    def drop_collection(self, name: str) -> None:
        if not self.has_collection(name):
            return
        with _unless_missing(), _translated_errors("drop a collection"):
            self._client.drop_collection(name, timeout=self._timeout)

    def rename_collection(self, old: str, new: str) -> None:
        if not self.has_collection(old):
            raise DomainError(ErrorCode.NOT_FOUND, f"Collection '{old}' does not exist.")
        if self.has_collection(new):
            raise DomainError(ErrorCode.CONFLICT, f"Collection '{new}' already exists.")
        if not self._rename_on_server(old, new):
            # Milvus Lite implements neither renames nor aliases: copy, then drop the old one.
            self._copy_collection(old, new)
            self.drop_collection(old)

    def _rename_on_server(self, old: str, new: str) -> bool:
        """False when the server does not implement renames."""
        with _translated_errors("rename a collection"):
            try:
                self._client.rename_collection(old, new, timeout=self._timeout)
            except grpc.RpcError as error:
                if _status_code(error) == grpc.StatusCode.UNIMPLEMENTED:
                    return False
                raise
        return True

    def _copy_collection(self, old: str, new: str) -> None:
        self.create_collection(new, dimension=self._dimension(old))
        try:
            for page in self._pages(old, expr="", fields=_COPIED_FIELDS, size=_COPY_PAGE):
                for batch in _upsert_batches(page):
                    with _translated_errors("copy a collection"):
                        self._client.insert(new, batch, timeout=self._timeout)
        except BaseException:
            self.drop_collection(new)
            raise

    def _dimension(self, name: str) -> int:
        with _translated_errors("describe a collection"):
            description = self._client.describe_collection(name, timeout=self._timeout)
        vector_field = next(f for f in description["fields"] if f["name"] == "vector")
        return int(vector_field["params"]["dim"])

    def _check_dimension(self, name: str, dimension: int) -> None:
        existing = self._dimension(name)
        if existing != dimension:
            msg = f"Collection '{name}' holds {existing}-d vectors, not {dimension}-d."
            raise DomainError(ErrorCode.CONFLICT, msg)

    # -- writes -------------------------------------------------------------------------------

    def upsert(self, name: str, chunks: Sequence[ChunkRecord]) -> None:
        # Milvus keeps both rows when one request repeats a primary key: keep the last one.
        latest = {chunk.id: chunk for chunk in chunks}
        rows = [_row(chunk) for chunk in latest.values()]
        for batch in _upsert_batches(rows):
            with _translated_errors("store chunks"):
                self._client.upsert(name, batch, timeout=self._timeout)

    def delete(
        self, name: str, *, source_id: int, chunk_hashes: Sequence[str] | None = None
    ) -> int:
        source_expr = f"source_id == {operator.index(source_id)}"
        if chunk_hashes is None:
            return self._delete_where(name, source_expr)
        hashes = sorted(set(chunk_hashes))
        return sum(
            self._delete_where(name, f"{source_expr} and chunk_hash in {_string_list(batch)}")
            for batch in _slices(hashes, _DELETE_BATCH)
        )

    def _delete_where(self, name: str, expr: str) -> int:
        with _unless_missing(), _translated_errors("delete chunks"):
            result = self._client.delete(name, filter=expr, timeout=self._timeout)
            # Milvus Lite answers with the deleted primary keys, a server with a count.
            if isinstance(result, list):
                return len(result)
            return int(result.get("delete_count", 0))
        return 0

    # -- reads --------------------------------------------------------------------------------

    def chunk_hashes(self, name: str, *, source_id: int) -> set[str]:
        expr = f"source_id == {operator.index(source_id)}"
        hashes: set[str] = set()
        with _unless_missing():
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
            conditions = [c for c in (expr, _after(last_id)) if c]
            with _translated_errors("read chunks"):
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
        fields = ["text", "source_id", "chunk_hash", "type", "metadata"]
        with _unless_missing():
            for page in self._pages(name, expr=expr, fields=fields):
                rows.extend(page)
                if len(rows) >= limit:
                    break
        # Query rows are flat; search hits nest the fields under "entity".
        return [_hit({"id": r["id"], "distance": 0.0, "entity": r}) for r in rows[:limit]]

    def count(self, name: str, *, source_id: int | None = None) -> int:
        expr = "" if source_id is None else f"source_id == {operator.index(source_id)}"
        with _unless_missing(), _translated_errors("count chunks"):
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
            name, [_floats(vector)], field="vector", metric="COSINE", limit=limit, where=where
        )

    def search_bm25(
        self, name: str, text: str, *, limit: int, where: SearchFilter | None = None
    ) -> list[SearchHit]:
        if not text.strip():
            return []
        return self._search(name, [text], field="sparse", metric="BM25", limit=limit, where=where)

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
        with _unless_missing(), _translated_errors("search"):
            results = self._client.search(
                name,
                data=data,
                anns_field=field,
                filter=expr,
                limit=min(limit, _MAX_TOP_K),
                output_fields=_OUTPUT_FIELDS,
                search_params={"metric_type": metric},
                consistency_level=_SEARCH_CONSISTENCY,
                timeout=self._timeout,
            )
            return [_hit(raw, bm25=metric == "BM25") for raw in results[0]]
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
        # A filter applies only to the request that carries it, so each one gets it.
        requests = [
            AnnSearchRequest(
                data=[_floats(vector)],
                anns_field="vector",
                param={"metric_type": "COSINE"},
                limit=candidates,
                expr=expr,
            )
        ]
        if text.strip():  # no words: the dense ranking alone, still scored by RRF
            requests.append(
                AnnSearchRequest(
                    data=[text],
                    anns_field="sparse",
                    param={"metric_type": "BM25"},
                    limit=candidates,
                    expr=expr,
                )
            )
        with _unless_missing(), _translated_errors("search"):
            results = self._client.hybrid_search(
                name,
                requests,
                RRFRanker(_RRF_K),
                limit=limit,
                output_fields=_OUTPUT_FIELDS,
                consistency_level=_SEARCH_CONSISTENCY,
                timeout=self._timeout,
            )
            return [_hit(raw) for raw in results[0]]
        return []


# -- schema ---------------------------------------------------------------------------------------


def _collection_schema(client: MilvusClient, dimension: int) -> Any:
    schema = client.create_schema(auto_id=False, enable_dynamic_field=False)
    schema.add_field("id", DataType.VARCHAR, is_primary=True, max_length=MAX_ID_BYTES)
    schema.add_field("vector", DataType.FLOAT_VECTOR, dim=dimension)
    schema.add_field("text", DataType.VARCHAR, max_length=MAX_TEXT_BYTES, enable_analyzer=True)
    schema.add_field("sparse", DataType.SPARSE_FLOAT_VECTOR)
    schema.add_field("source_id", DataType.INT64)
    schema.add_field("chunk_hash", DataType.VARCHAR, max_length=MAX_HASH_BYTES)
    schema.add_field("type", DataType.VARCHAR, max_length=MAX_TYPE_BYTES)
    schema.add_field("metadata", DataType.JSON)  # returned, never filtered: JSON filters are slow
    schema.add_function(
        Function(
            name="text_bm25",
            function_type=FunctionType.BM25,
            input_field_names=["text"],
            output_field_names=["sparse"],
        )
    )
    return schema


def _index_params(client: MilvusClient) -> Any:
    params = client.prepare_index_params()
    # AUTOINDEX: HNSW on a Milvus server; Milvus Lite rejects HNSW (it takes only FLAT, IVF_FLAT
    # and AUTOINDEX). Measured on Lite 2.5.1, 50k clustered 384-d chunks, 200 queries:
    # AUTOINDEX p50 14.5 ms recall@10 1.0, FLAT 13.0 ms 1.0, IVF_FLAT(nlist 128) 15.5 ms 1.0
    # (same within the noise); at 100k AUTOINDEX 3.5 ms, recall@10 0.986. One choice for both.
    params.add_index(field_name="vector", index_type="AUTOINDEX", metric_type="COSINE")
    params.add_index(field_name="sparse", index_type="SPARSE_INVERTED_INDEX", metric_type="BM25")
    # Incremental indexing filters and deletes by source and hash.
    params.add_index(field_name="source_id", index_type="INVERTED")
    params.add_index(field_name="chunk_hash", index_type="INVERTED")
    return params


# -- rows and hits --------------------------------------------------------------------------------


def _row(chunk: ChunkRecord) -> dict[str, Any]:
    _check_length("id", chunk.id, MAX_ID_BYTES)
    _check_length("chunk_hash", chunk.chunk_hash, MAX_HASH_BYTES)
    _check_length("type", chunk.type, MAX_TYPE_BYTES)
    if not chunk.type.isprintable():
        raise DomainError(ErrorCode.INVALID_INPUT, f"Chunk type {chunk.type!r} is not printable.")
    return {
        "id": chunk.id,
        "vector": _floats(chunk.vector),
        "text": truncate_utf8(chunk.text, MAX_TEXT_BYTES),
        "source_id": operator.index(chunk.source_id),
        "chunk_hash": chunk.chunk_hash,
        "type": chunk.type,
        "metadata": chunk.metadata,
    }


def _check_length(field: str, value: str, max_bytes: int) -> None:
    if not value or len(value.encode()) > max_bytes:
        msg = f"Chunk {field} must be 1 to {max_bytes} bytes long: {value[:80]!r}."
        raise DomainError(ErrorCode.INVALID_INPUT, msg)


def truncate_utf8(text: str, max_bytes: int) -> str:
    """The longest prefix of `text` that fits in `max_bytes` of UTF-8, never a split character."""
    encoded = text.encode()
    if len(encoded) <= max_bytes:
        return text
    return encoded[:max_bytes].decode(errors="ignore")


def _floats(vector: Sequence[float]) -> list[float]:
    return [float(x) for x in vector]


def _upsert_batches(rows: list[dict[str, Any]]) -> Iterator[list[dict[str, Any]]]:
    batch: list[dict[str, Any]] = []
    size = 0
    for row in rows:
        row_size = len(row["text"].encode()) + 4 * len(row["vector"]) + 512
        if batch and (len(batch) >= _UPSERT_BATCH_ROWS or size + row_size > _UPSERT_BATCH_BYTES):
            yield batch
            batch, size = [], 0
        batch.append(row)
        size += row_size
    if batch:
        yield batch


def _hit(raw: dict[str, Any], *, bm25: bool = False) -> SearchHit:
    entity = raw["entity"]
    return SearchHit(
        id=str(raw["id"]),
        text=entity["text"],
        source_id=int(entity["source_id"]),
        chunk_hash=entity["chunk_hash"],
        type=entity["type"],
        metadata=entity.get("metadata") or {},
        # Some engine versions report BM25 as a negative distance; the score is its magnitude.
        score=abs(float(raw["distance"])) if bm25 else float(raw["distance"]),
    )


# -- filter expressions ---------------------------------------------------------------------------


def filter_expression(where: SearchFilter | None) -> str | None:
    """A Milvus boolean expression for the filter; "" when it has no conditions, None when it
    can match nothing (an empty list, which Milvus itself rejects)."""
    if where is None:
        return ""
    conditions = []
    if where.source_ids is not None:
        source_ids = sorted({operator.index(source_id) for source_id in where.source_ids})
        if not source_ids:
            return None
        conditions.append(f"source_id in [{', '.join(map(str, source_ids))}]")
    if where.types is not None:
        # Milvus string literals cannot hold a newline (and we never store one in a type).
        types = sorted({t for t in where.types if t.isprintable()})
        if not types:
            return None
        conditions.append(f"type in {_string_list(types)}")
    return " and ".join(conditions)


def _string_list(values: Sequence[str]) -> str:
    return "[" + ", ".join(_string_literal(value) for value in values) + "]"


def _string_literal(value: str) -> str:
    # The expression parser decodes only \\ and \" (not \n or \u escapes), so escape just those.
    return '"' + value.replace("\\", "\\\\").replace('"', '\\"') + '"'


def _after(last_id: str | None) -> str:
    return "" if last_id is None else f"id > {_string_literal(last_id)}"


def _slices(values: list[str], size: int) -> Iterator[list[str]]:
    for start in range(0, len(values), size):
        yield values[start : start + size]


# -- errors ---------------------------------------------------------------------------------------


class CollectionNotFoundError(DomainError):
    def __init__(self) -> None:
        super().__init__(ErrorCode.NOT_FOUND, "The vector store has no such collection.")


@contextmanager
def _translated_errors(action: str) -> Iterator[None]:
    """pymilvus and gRPC errors become ours: retryable ones a `TransientError`."""
    try:
        yield
    except (MilvusException, grpc.RpcError) as error:
        raise _domain_error(error, action) from error


def _unless_missing() -> AbstractContextManager[None]:
    """Swallow a missing collection: a guru with nothing indexed has nothing to return."""
    return suppress(CollectionNotFoundError)


def _domain_error(error: Exception, action: str) -> DomainError:
    code = _status_code(error)
    if code == _COLLECTION_NOT_FOUND:
        return CollectionNotFoundError()
    if code in _TRANSIENT_GRPC_CODES or code in _TRANSIENT_MILVUS_CODES:
        msg = f"The vector store is unavailable (could not {action})."
        return TransientError(ErrorCode.PROVIDER_UNAVAILABLE, msg)
    reason = error.message if isinstance(error, MilvusException) else str(error)
    msg = f"The vector store could not {action}."
    return DomainError(ErrorCode.PROVIDER_ERROR, msg, detail={"reason": str(reason)[:300]})


def _status_code(error: Exception) -> Any:
    """The gRPC status or Milvus code. When pymilvus gives up retrying a gRPC error it wraps it
    in a MilvusException whose `code` is the gRPC error's bound `code` method."""
    if isinstance(error, grpc.RpcError):
        return error.code()
    code = getattr(error, "code", None)
    return code() if callable(code) else code

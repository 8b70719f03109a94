"""The shared layout (VECTOR_LAYOUT=shared): one Milvus collection per embedding dimension and
BM25 analyzer holds the chunks of every guru using them, the guru as Milvus's partition key.

A guru keeps addressing its chunks by its collection name; here that name is the value of the
guru field on its rows, and every read, search and delete is filtered by it (`Scope`). A small
registry collection maps each name to the shared collection holding its rows, so an empty guru
costs one registry row instead of a collection of its own (which the capacity bench measured at
tens of MB of Milvus memory each). A name not in the registry that still has a collection of its
own (made by the per-guru layout) is served from that collection until `vector_layout_migrate`
moves it here: copy, switch (the registry row), then drop.
"""

import hashlib
import json
from typing import Any

import grpc
from pymilvus import DataType

from openguru.core.errors import DomainError, ErrorCode
from openguru.providers.vectorstore.bm25_analyzers import bm25_analyzer_name
from openguru.providers.vectorstore.milvus import MilvusVectorStore
from openguru.providers.vectorstore.milvus_errors import status_code, unless_missing
from openguru.providers.vectorstore.milvus_schema import (
    MAX_TENANT_BYTES,
    collection_schema,
    index_params,
    text_analyzer_params,
    vector_dimension,
)
from openguru.providers.vectorstore.milvus_scope import TENANT_FIELD, Scope
from openguru.providers.vectorstore.milvus_search import STRONG

# Milvus wants a vector field in every collection, the registry's included.
_REGISTRY_VECTOR = [1.0, 0.0]


class SharedMilvusVectorStore(MilvusVectorStore):
    def __init__(self, *, collection_prefix: str = "guru_", **kwargs: Any) -> None:
        super().__init__(**kwargs)
        self._prefix = collection_prefix
        self._registry = f"{collection_prefix}shared_registry"
        # A name's shared collection never changes while the name exists: found once per
        # process. Names not (yet) registered are looked up every time, so a guru moved here by
        # another process is followed at once.
        self._homes: dict[str, str] = {}
        self._partition_key: bool | None = None
        self._registry_seen = False  # until it exists, a lookup would log a missing collection

    # -- where a name's rows are --------------------------------------------------------------

    def _scope(self, name: str) -> Scope:
        home = self._homes.get(name) or self._registered(name)
        if home is None:
            return Scope(name)
        self._homes[name] = home
        return Scope(home, tenant=name)

    def _registered(self, name: str) -> str | None:
        if not self._registry_seen:
            if not self._exists(self._registry):
                return None
            self._registry_seen = True
        with unless_missing(), self._translated("find a collection"):
            rows = self._client.get(
                self._registry,
                ids=[name],
                output_fields=["collection"],
                consistency_level=STRONG,
                timeout=self._timeout,
            )
            return str(rows[0]["collection"]) if rows else None
        return None

    def _exists(self, collection: str) -> bool:
        return MilvusVectorStore.has_collection(self, collection)

    def collection_layout(self, name: str) -> str | None:
        """ "shared", "per_guru" (a collection of its own, not moved yet) or None (no such)."""
        if self._registered(name) is not None:
            return "shared"
        return "per_guru" if self._exists(name) else None

    # -- collections --------------------------------------------------------------------------

    def has_collection(self, name: str) -> bool:
        return self.collection_layout(name) is not None

    def _create_collection(
        self, name: str, *, dimension: int, analyzer_params: dict[str, Any] | None
    ) -> None:
        layout = self.collection_layout(name)
        if layout == "per_guru":
            super()._create_collection(name, dimension=dimension, analyzer_params=analyzer_params)
            return
        if layout == "shared":
            self._check_dimension(name, dimension)
            return
        home = self._shared_collection(dimension, analyzer_params)
        self._register(name, home)

    def _register(self, name: str, home: str) -> None:
        if len(name.encode()) > MAX_TENANT_BYTES:
            raise DomainError(ErrorCode.INVALID_INPUT, f"Collection name too long: {name[:80]!r}.")
        with self._translated("register a collection"):
            row = {"name": name, "collection": home, "vector": _REGISTRY_VECTOR}
            self._client.upsert(self._registry, [row], timeout=self._timeout)
        self._homes[name] = home

    def drop_collection(self, name: str) -> None:
        if self._registered(name) is None:
            super().drop_collection(name)  # a collection of its own, or none
            return
        # Rows first: a drop cut short leaves a registered name to drop again, never rows
        # that no name reaches.
        self._delete_where(name, "")
        with unless_missing(), self._translated("drop a collection"):
            self._client.delete(self._registry, ids=[name], timeout=self._timeout)
        self._homes.pop(name, None)

    def rename_collection(self, old: str, new: str) -> None:
        # Rows change collections only by copy (their primary keys carry the name).
        self._check_copyable(old, new)
        self._copy_collection(old, new, analyzer_params=self._analyzer_params_of(old))
        self.drop_collection(old)

    # -- moving a collection of its own here ---------------------------------------------------

    def adopt_collection(self, name: str) -> int:
        """Copy the rows of `name`'s own collection into its shared one, then serve `name` from
        there; returns how many rows moved. The own collection is left serving readers that
        looked it up before the switch: `drop_own_collection` once they are done."""
        if self.collection_layout(name) != "per_guru":
            return 0
        description = self._describe(name)
        home = self._shared_collection(
            vector_dimension(description), text_analyzer_params(description)
        )
        target = Scope(home, tenant=name)
        try:
            self._delete_target(target)  # what an earlier attempt cut short left behind
            self._copy_rows(name, target)
        except BaseException:
            self._delete_target(target)
            raise
        self._register(name, home)
        return self.count(name)

    def _delete_target(self, target: Scope) -> None:
        with unless_missing(), self._translated("delete chunks"):
            self._client.delete(target.collection, filter=target.where(""), timeout=self._timeout)

    def drop_own_collection(self, name: str) -> None:
        """Drop the collection of its own of a name served from a shared collection."""
        if self._registered(name) is None:
            raise DomainError(ErrorCode.CONFLICT, f"Collection '{name}' has not been moved.")
        if self._exists(name):
            with unless_missing(), self._translated("drop a collection"):
                self._client.drop_collection(name, timeout=self._timeout)

    # -- the shared collections ---------------------------------------------------------------

    def _shared_collection(self, dimension: int, analyzer_params: dict[str, Any] | None) -> str:
        """The shared collection for this dimension and analyzer, created on first use."""
        name = f"{self._prefix}shared_{dimension}d_{_analyzer_label(analyzer_params)}"
        self._ensure_registry()
        if self._exists(name):
            return name
        client = self._client
        schema = collection_schema(
            client,
            dimension,
            analyzer_params=analyzer_params,
            tenant_field=TENANT_FIELD,
            partition_key=self._has_partitions(),
        )
        self._create_once(name, schema, index_params(client, tenant_field=TENANT_FIELD))
        return name

    def _ensure_registry(self) -> None:
        if self._exists(self._registry):
            return
        client = self._client
        schema = client.create_schema(auto_id=False, enable_dynamic_field=False)
        schema.add_field("name", DataType.VARCHAR, is_primary=True, max_length=MAX_TENANT_BYTES)
        schema.add_field("collection", DataType.VARCHAR, max_length=255)
        schema.add_field("vector", DataType.FLOAT_VECTOR, dim=len(_REGISTRY_VECTOR))
        params = client.prepare_index_params()
        params.add_index(field_name="vector", index_type="FLAT", metric_type="L2")
        self._create_once(self._registry, schema, params)

    def _create_once(self, name: str, schema: Any, params: Any) -> None:
        client = self._client
        try:
            with self._translated("create a collection"):
                client.create_collection(
                    name, schema=schema, consistency_level=STRONG, timeout=self._timeout
                )
                # Empty, so its indexes are ready at once (see MilvusVectorStore).
                client.create_index(name, params, timeout=self._timeout, sync=False)
                client.load_collection(name, timeout=self._timeout)
        except DomainError:
            if not self._exists(name):  # not another process creating it at the same moment
                raise

    def _has_partitions(self) -> bool:
        """Milvus Lite implements neither partitions nor the partition key (a filter on a key
        field fails there), and answers a version request with UNIMPLEMENTED: there the guru
        field is a plain indexed field, which the same filters use."""
        if self._partition_key is None:
            with self._translated("reach the vector store"):
                try:
                    self._client.get_server_version(timeout=self._timeout)
                    self._partition_key = True
                except grpc.RpcError as error:
                    if status_code(error) != grpc.StatusCode.UNIMPLEMENTED:
                        raise
                    self._partition_key = False
        return self._partition_key


def _analyzer_label(params: dict[str, Any] | None) -> str:
    name = bm25_analyzer_name(params)
    if name != "custom":
        return name
    return "custom_" + hashlib.sha256(json.dumps(params, sort_keys=True).encode()).hexdigest()[:8]

"""The collection layout: one row per chunk, with its dense vector and BM25 sparse vector; in a
collection shared by many gurus, also the guru it belongs to."""

import json
from typing import Any

from pymilvus import DataType, Function, FunctionType, MilvusClient

# VARCHAR limits count UTF-8 bytes. A Milvus server rejects longer values; Milvus Lite accepts
# them silently, so the limits are enforced here for both.
MAX_TEXT_BYTES = 65_535
MAX_ID_BYTES = 128
MAX_HASH_BYTES = 64
MAX_TYPE_BYTES = 16
MAX_TENANT_BYTES = 128  # a guru's collection name


def text_analyzer_params(description: dict[str, Any]) -> dict[str, Any] | None:
    """The analyzer an existing collection was created with (from `describe_collection`)."""
    text_field = next(f for f in description["fields"] if f["name"] == "text")
    params = text_field.get("params", {}).get("analyzer_params")
    if params is None:
        return None
    # Milvus answers with the JSON text it stored; a dict is accepted too.
    return json.loads(params) if isinstance(params, str) else dict(params)


def vector_dimension(description: dict[str, Any]) -> int:
    """The dimension an existing collection was created with (from `describe_collection`)."""
    vector_field = next(f for f in description["fields"] if f["name"] == "vector")
    return int(vector_field["params"]["dim"])


def collection_schema(
    client: MilvusClient,
    dimension: int,
    *,
    analyzer_params: dict[str, Any] | None = None,
    tenant_field: str | None = None,
    partition_key: bool = False,
) -> Any:
    """With `tenant_field`, a collection shared by many gurus: the field names each row's guru
    (Milvus's partition key when `partition_key`), and primary keys are prefixed with it."""
    schema = client.create_schema(auto_id=False, enable_dynamic_field=False)
    id_bytes = MAX_ID_BYTES if tenant_field is None else MAX_TENANT_BYTES + 1 + MAX_ID_BYTES
    schema.add_field("id", DataType.VARCHAR, is_primary=True, max_length=id_bytes)
    if tenant_field is not None:
        schema.add_field(
            tenant_field,
            DataType.VARCHAR,
            max_length=MAX_TENANT_BYTES,
            is_partition_key=partition_key,
        )
    schema.add_field("vector", DataType.FLOAT_VECTOR, dim=dimension)
    analyzer = {} if analyzer_params is None else {"analyzer_params": analyzer_params}
    schema.add_field(
        "text", DataType.VARCHAR, max_length=MAX_TEXT_BYTES, enable_analyzer=True, **analyzer
    )
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


def index_params(client: MilvusClient, *, tenant_field: str | None = None) -> Any:
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
    if tenant_field is not None:  # every read and delete filters on it
        params.add_index(field_name=tenant_field, index_type="INVERTED")
    return params

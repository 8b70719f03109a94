"""Milvus boolean expressions (search filters, string lists and key paging, safely escaped) and
the requests of a hybrid search that carry them."""

import operator
from collections.abc import Sequence

from pymilvus import AnnSearchRequest

from openguru.providers.vectorstore.base import SearchFilter
from openguru.providers.vectorstore.milvus_rows import float_list


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
        conditions.append(f"type in {string_list(types)}")
    return " and ".join(conditions)


def string_list(values: Sequence[str]) -> str:
    return "[" + ", ".join(string_literal(value) for value in values) + "]"


def string_literal(value: str) -> str:
    """A Milvus string literal."""
    # The expression parser decodes only \\ and \" (not \n or \u escapes), so escape just those.
    return '"' + value.replace("\\", "\\\\").replace('"', '\\"') + '"'


def ids_after(last_id: str | None) -> str:
    """Rows past `last_id` in primary-key order ("" on the first page)."""
    return "" if last_id is None else f"id > {string_literal(last_id)}"


def hybrid_requests(
    vector: Sequence[float], text: str, *, candidates: int, expr: str
) -> list[AnnSearchRequest]:
    """The dense request and, when the text has words, the BM25 one. A filter applies only to
    the request that carries it, so each one gets it."""
    requests = [
        AnnSearchRequest(
            data=[float_list(vector)],
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
    return requests

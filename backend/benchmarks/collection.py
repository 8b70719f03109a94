"""Read back what the indexer stored for a source, straight from Milvus."""

from typing import Any

from pymilvus import MilvusClient

_PAGE = 5_000  # below Milvus' 16384 cap on offset + limit


def chunk_rows(
    *, uri: str, collection: str, source_id: int, fields: list[str]
) -> list[dict[str, Any]]:
    """Every chunk row of the source, ordered by chunk id (a stable, content-blind order)."""
    client = MilvusClient(uri=uri)
    rows: list[dict[str, Any]] = []
    last_id = ""
    try:
        while True:
            condition = f"source_id == {int(source_id)}"
            if last_id:
                condition += f' and id > "{last_id}"'  # ids are "<source>-<hex hash>": no quotes
            page = client.query(
                collection,
                filter=condition,
                output_fields=["id", *fields],
                limit=_PAGE,
                consistency_level="Strong",
            )
            page.sort(key=lambda row: row["id"])
            rows.extend(page)
            if len(page) < _PAGE:
                return rows
            last_id = page[-1]["id"]
    finally:
        client.close()


def evenly_spaced(items: list[str], count: int) -> list[str]:
    """`count` items spread over the whole list (all of them when it is shorter)."""
    if count >= len(items):
        return list(items)
    step = len(items) / count
    return [items[int(i * step)] for i in range(count)]

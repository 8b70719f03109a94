"""Where a collection's rows live in Milvus: a Milvus collection of its own (the per-guru layout),
or the rows carrying its name in a collection shared by every guru with the same embedding
dimension and BM25 analyzer (the shared layout, `milvus_shared.py`)."""

from dataclasses import dataclass, replace
from typing import Any

from openguru.providers.vectorstore.base import SearchHit
from openguru.providers.vectorstore.milvus_expressions import string_literal

# The shared collections' field naming each row's guru (its collection name): Milvus's
# partition key on a server, so a guru's search reads only its own partition.
TENANT_FIELD = "guru"


@dataclass(frozen=True)
class Scope:
    collection: str  # the Milvus collection holding the rows
    tenant: str | None = None  # the value of TENANT_FIELD in a shared collection

    def where(self, expr: str) -> str:
        """`expr` limited to this scope's rows: every read and delete goes through it."""
        if self.tenant is None:
            return expr
        own = f"{TENANT_FIELD} == {string_literal(self.tenant)}"
        return f"{own} and ({expr})" if expr else own

    def key(self, chunk_id: str) -> str:
        """The primary key of a chunk: gurus in one collection may hold chunks of the same id."""
        return chunk_id if self.tenant is None else f"{self.tenant}/{chunk_id}"

    def chunk_id(self, key: str) -> str:
        return key if self.tenant is None else key.removeprefix(f"{self.tenant}/")

    def rows(self, rows: list[dict[str, Any]]) -> list[dict[str, Any]]:
        """Rows of chunk ids, as stored in this scope."""
        if self.tenant is None:
            return rows
        return [{**row, "id": self.key(row["id"]), TENANT_FIELD: self.tenant} for row in rows]

    def chunk_rows(self, rows: list[dict[str, Any]]) -> list[dict[str, Any]]:
        """Stored rows back to rows of chunk ids."""
        if self.tenant is None:
            return rows
        return [{**row, "id": self.chunk_id(row["id"])} for row in rows]

    def hit(self, hit: SearchHit) -> SearchHit:
        return hit if self.tenant is None else replace(hit, id=self.chunk_id(hit.id))

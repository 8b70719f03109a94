"""Chunk helpers the vector-store contract files share (their fixtures are in conftest.py)."""

import math
import uuid
from collections.abc import Sequence

from openguru.providers.vectorstore.base import ChunkRecord, VectorStore

DIM = 8


def unique_collection_name() -> str:
    return f"contract_{uuid.uuid4().hex[:12]}"


# --- Helpers -------------------------------------------------------------------------------------


def axis_vector(index: int, *, tilt: float = 0.0) -> list[float]:
    """A unit vector along one axis, optionally tilted towards the next one."""
    vector = [0.0] * DIM
    vector[index % DIM] = 1.0
    vector[(index + 1) % DIM] = tilt
    norm = math.sqrt(1.0 + tilt * tilt)
    return [x / norm for x in vector]


def make_chunk(
    chunk_id: str,
    *,
    source_id: int = 1,
    text: str = "plain words about nothing special",
    vector: Sequence[float] | None = None,
    chunk_hash: str | None = None,
    type: str = "text",
    metadata: dict | None = None,
) -> ChunkRecord:
    return ChunkRecord(
        id=chunk_id,
        vector=list(vector) if vector is not None else axis_vector(0, tilt=0.5),
        text=text,
        source_id=source_id,
        chunk_hash=chunk_hash or f"hash-{chunk_id}",
        type=type,
        metadata=metadata or {},
    )


def make_source_chunks(source_id: int, count: int, *, type: str = "text") -> list[ChunkRecord]:
    return [
        make_chunk(
            f"s{source_id}-c{n}",
            source_id=source_id,
            chunk_hash=f"s{source_id}-h{n}",
            type=type,
        )
        for n in range(count)
    ]


def index_corpus(store: VectorStore, name: str) -> None:
    """Three sources; each chunk points along its own axis and has its own rare word."""
    store.upsert(
        name,
        [
            make_chunk(
                "a", source_id=1, vector=axis_vector(0), text="Install the zebrafish package"
            ),
            make_chunk(
                "b", source_id=1, vector=axis_vector(1), text="Configure the walrus settings"
            ),
            make_chunk(
                "c",
                source_id=2,
                vector=axis_vector(2),
                text="Deploy with the narwhal tool",
                type="code",
            ),
            make_chunk(
                "d",
                source_id=3,
                vector=axis_vector(3),
                text="Frequently asked: the okapi",
                type="faq",
            ),
        ],
    )

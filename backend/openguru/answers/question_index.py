"""The near-duplicate lookup's index: every answered question's embedding is also kept in a small
per-guru collection of the vector store, so finding the nearest earlier question is one vector
search however many questions the guru has answered. (Reading every saved vector from the
database cost ~41 ms at 1,232 questions, growing linearly, on the way to the first token.)

The database row stays the source of truth: a hit counts only while its row still qualifies, and
a missing collection (a guru answered before this index existed, a wiped vector store) is rebuilt
from the rows' vectors the first time it is needed.
"""

import logging
import threading
from collections.abc import Iterable

import numpy as np
from django.db.models import QuerySet

from openguru.answers.models import Question
from openguru.gurus.models import Guru
from openguru.providers.vectorstore.base import ChunkRecord, VectorStore
from openguru.providers.vectorstore.factory import get_vector_store

logger = logging.getLogger(__name__)

QUESTION_TYPE = "question"
COLLECTION_SUFFIX = "_questions"
BACKFILL_BATCH = 500
MAX_TEXT_CHARS = 2000  # the row's text is for people looking at the collection, not for search

_ready: set[str] = set()  # collections this process has seen or built
_ready_lock = threading.Lock()


def question_collection(guru: Guru) -> str:
    return f"{guru.collection_name}{COLLECTION_SUFFIX}"


def question_index_nearest(
    *, guru: Guru, answered: QuerySet[Question], vector: list[float], limit: int
) -> list[tuple[int, float]]:
    """(question id, cosine similarity) of the nearest indexed questions, best first.
    `answered` is what a rebuild reads: the questions whose answers may be reused."""
    store = get_vector_store()
    name = _ensure_collection(store, guru, answered)
    hits = store.search_dense(name, vector, limit=limit)
    return [(int(hit.metadata["question_id"]), hit.score) for hit in hits]


def question_index_add(*, guru: Guru, question: Question, answered: QuerySet[Question]) -> None:
    """Index (or re-index) one saved question. A failure is logged, not raised: the answer is
    saved, and the lookup only misses this question as a near-duplicate."""
    vector = _vector(question.vector, guru.embedding_dimension)
    if vector is None:
        return
    try:
        store = get_vector_store()
        name = _ensure_collection(store, guru, answered)
        store.upsert(name, [_record(question.pk, question.question, vector)])
    except Exception:
        logger.warning(
            "could not index question %s for near-duplicates", question.pk, exc_info=True
        )


def question_index_drop(*, collection: str) -> None:
    """Drop the question index that belongs to a guru's chunk collection `collection`."""
    name = f"{collection}{COLLECTION_SUFFIX}"
    get_vector_store().drop_collection(name)
    with _ready_lock:
        _ready.discard(name)


def _ensure_collection(store: VectorStore, guru: Guru, answered: QuerySet[Question]) -> str:
    name = question_collection(guru)
    if name in _ready:
        return name
    with _ready_lock:
        if name not in _ready:
            if not store.has_collection(name):
                store.create_collection(name, dimension=guru.embedding_dimension)
                _backfill(store, name, answered, guru.embedding_dimension)
            _ready.add(name)
    return name


def _backfill(store: VectorStore, name: str, answered: QuerySet[Question], dimension: int) -> None:
    rows = answered.exclude(vector=None).values_list("pk", "question", "vector")
    records = (
        _record(pk, text, vector)
        for pk, text, stored in rows.iterator()
        if (vector := _vector(stored, dimension)) is not None
    )
    indexed = 0
    for batch in _batches(records, BACKFILL_BATCH):
        store.upsert(name, batch)
        indexed += len(batch)
    logger.info("built the question index %s from %d saved questions", name, indexed)


def _batches(records: Iterable[ChunkRecord], size: int) -> Iterable[list[ChunkRecord]]:
    batch: list[ChunkRecord] = []
    for record in records:
        batch.append(record)
        if len(batch) == size:
            yield batch
            batch = []
    if batch:
        yield batch


def _vector(stored: bytes | memoryview | None, dimension: int) -> list[float] | None:
    """The float32 vector the row holds, if it has one of this guru's dimension."""
    if stored is None:
        return None
    raw = bytes(stored)
    if len(raw) != 4 * dimension:
        return None  # another model's vector (a re-embedded guru): not comparable
    return [float(value) for value in np.frombuffer(raw, dtype="<f4")]


def _record(question_id: int, text: str, vector: list[float]) -> ChunkRecord:
    return ChunkRecord(
        id=f"q{question_id}",
        vector=vector,
        text=text[:MAX_TEXT_CHARS],
        source_id=0,
        chunk_hash=f"question-{question_id}",
        type=QUESTION_TYPE,
        metadata={"question_id": question_id},
    )

"""The saved question embeddings of a guru, kept in memory per process for the near-duplicate
lookup that runs before every answer.

Reading and decoding every saved vector on every ask grows with the guru's history (10,000
questions are 15 MB of float32 through the database driver per ask). The copy is checked with one
aggregate query (how many vectors, the newest change) and topped up with the rows changed since;
anything it cannot explain that way (a deletion, vectors cleared by a re-embed, a regenerated
answer) makes it reload. A stale copy can only point at a question that no longer qualifies,
and the caller fetches the winner again through the same filter, so it never serves one.

The copies share a byte budget: past it, the gurus asked least recently lose theirs (and read
it again when next asked), so a deleted guru's copy, or a rarely asked one, cannot hold memory
for the life of the process.
"""

import threading
from collections import OrderedDict
from dataclasses import dataclass
from datetime import datetime

import numpy as np
from django.db.models import Count, Max, QuerySet

from openguru.answers.models import Question
from openguru.gurus.models import Guru

Rows = list[tuple[int, bytes, datetime]]  # (pk, vector, updated_at)


@dataclass(frozen=True)
class _Snapshot:
    count: int  # vectors in the queryset when read, of every size
    newest: datetime | None  # the latest `updated_at` among them
    by_size: dict[int, tuple[list[int], np.ndarray]]  # bytes per vector -> (pks, unit rows)

    @property
    def nbytes(self) -> int:
        return sum(rows.nbytes for _, rows in self.by_size.values())


# 256 MiB is about 170,000 questions of a 384-dimension model; the guru being asked always
# keeps its copy, whatever its size.
MEMORY_BUDGET_BYTES = 256 * 1024 * 1024

_lock = threading.Lock()
# by guru (pk, created_at), least recently asked first
_snapshots: OrderedDict[tuple[int, datetime], _Snapshot] = OrderedDict()


def similar_vectors(
    *, guru: Guru, questions: QuerySet[Question], dimension: int
) -> tuple[list[int], np.ndarray]:
    """The pks and unit-length float32 rows of the guru's `questions` vectors that have
    `dimension` entries (a vector of another model's size is not comparable)."""
    snapshot = _current((guru.pk, guru.created_at), questions.exclude(vector=None))
    return snapshot.by_size.get(4 * dimension, ([], np.empty((0, dimension), dtype="<f4")))


def forget_question_vectors() -> None:
    """Drop every copy (tests; a process that wants its memory back)."""
    with _lock:
        _snapshots.clear()


def _current(key: tuple[int, datetime], with_vectors: QuerySet[Question]) -> _Snapshot:
    state = with_vectors.aggregate(count=Count("*"), newest=Max("updated_at"))
    with _lock:
        known = _snapshots.get(key)
    if known is not None and (known.count, known.newest) == (state["count"], state["newest"]):
        _keep(key, known)
        return known
    snapshot = _topped_up(known, with_vectors, state["count"]) if known else None
    snapshot = snapshot or _snapshot(None, _rows(with_vectors))
    _keep(key, snapshot)
    return snapshot


def _keep(key: tuple[int, datetime], snapshot: _Snapshot) -> None:
    """Store `snapshot` as the most recently asked, then drop the oldest copies over budget."""
    with _lock:
        _snapshots[key] = snapshot
        _snapshots.move_to_end(key)
        total = sum(kept.nbytes for kept in _snapshots.values())
        while total > MEMORY_BUDGET_BYTES and len(_snapshots) > 1:
            _, dropped = _snapshots.popitem(last=False)
            total -= dropped.nbytes


def _topped_up(known: _Snapshot, with_vectors: QuerySet[Question], count: int) -> _Snapshot | None:
    """The copy plus the rows saved since it was read, when those explain the new count."""
    if known.newest is None:
        return None
    rows = _rows(with_vectors.filter(updated_at__gt=known.newest))
    known_pks = {pk for pks, _ in known.by_size.values() for pk in pks}
    if not rows or len(rows) != count - known.count or any(pk in known_pks for pk, _, _ in rows):
        return None  # a row changed or went away: only a fresh read is right
    return _snapshot(known, rows)


def _rows(queryset: QuerySet[Question]) -> Rows:
    return [
        (pk, bytes(vector), updated)
        for pk, vector, updated in queryset.values_list("pk", "vector", "updated_at")
        if vector is not None  # excluded by the caller's filter; keeps the type exact
    ]


def _snapshot(base: _Snapshot | None, rows: Rows) -> _Snapshot:
    """`base` (if any) plus `rows`, their vectors grouped by size and scaled to unit length."""
    by_size = dict(base.by_size) if base else {}
    for size in {len(vector) for _, vector, _ in rows}:
        group = [(pk, vector) for pk, vector, _ in rows if len(vector) == size]
        matrix = np.vstack([np.frombuffer(vector, dtype="<f4") for _, vector in group])
        norms = np.linalg.norm(matrix, axis=1, keepdims=True)
        unit = (matrix / np.where(norms == 0, 1.0, norms)).astype("<f4")
        pks, rows_before = by_size.get(size, ([], np.empty((0, size // 4), dtype="<f4")))
        by_size[size] = (pks + [pk for pk, _ in group], np.vstack([rows_before, unit]))
    times = [updated for _, _, updated in rows] + ([base.newest] if base and base.newest else [])
    return _Snapshot(
        count=(base.count if base else 0) + len(rows),
        newest=max(times, default=None),
        by_size=by_size,
    )

"""The process's memo of the exact-match answer cache: a question asked again is served from
memory, with the guru read on every ask (the access rule needs it) as its only query.

What an earlier answer is served from is read from the database once and kept here under the
guru's `answers_epoch`: the answer `selectors.question_find_same` found for the exact question
text and version, and the guru's version labels (`guru_versions`). Everything that changes
what those reads would return (an answer saved, regenerated, edited, marked stale or deleted;
a source added, deleted or relabelled; the guru's settings) gives the guru a new epoch in the
same transaction (`gurus.services.guru_answers_changed`, `answers/receivers.py`), so the next
ask, in any process, reads the new epoch with the guru and finds nothing under it here.

A memo entry is only ever written from reads made after the guru row that carried its epoch,
so an entry can hold a newer answer than its epoch, never an older one. The answer kept is a
read-only, unsaved copy of the `Question` with the fields a replay reads: nothing that serves
it writes to it."""

import threading
from collections import OrderedDict
from typing import Any

from openguru.answers.models import Question
from openguru.gurus.models import Guru
from openguru.sources.versions import guru_versions

MAX_ENTRIES = 4096  # answers and version lists, over every guru; the least recently used go

_lock = threading.Lock()
_entries: "OrderedDict[tuple[Any, ...], Any]" = OrderedDict()


def _get(key: tuple[Any, ...]) -> Any:
    with _lock:
        value = _entries.get(key)
        if value is not None:
            _entries.move_to_end(key)
        return value


def _put(key: tuple[Any, ...], value: Any) -> None:
    with _lock:
        _entries[key] = value
        _entries.move_to_end(key)
        while len(_entries) > MAX_ENTRIES:
            _entries.popitem(last=False)


def memo_clear() -> None:
    with _lock:
        _entries.clear()


def guru_versions_memo(*, guru: Guru) -> list[str]:
    """Blocking (database on a miss). `sources.versions.guru_versions`, read once per epoch."""
    key = ("versions", guru.pk, guru.answers_epoch)
    versions = _get(key)
    if versions is None:
        versions = guru_versions(guru=guru)
        _put(key, versions)
    return list(versions)


def answer_memo_get(*, guru: Guru, text: str, version: str) -> Question | None:
    """The answer kept for this exact question text and version at the guru's epoch."""
    found = _get(("answer", guru.pk, guru.answers_epoch, version, text))
    return found if isinstance(found, Question) else None


# What a replay reads (`engine.stages.replay`): the rest of the row (its trace, its vector) is
# not kept, so a full memo stays a few megabytes.
_REPLAYED = (
    "id",
    "guru_id",
    "slug",
    "question",
    "user_question",
    "content",
    "description",
    "references",
    "trust_score",
    "extractive",
    "binge_id",
    "version",
    "stale",
    "created_at",
    "updated_at",
)


def answer_memo_put(*, guru: Guru, text: str, version: str, question: Question) -> None:
    """Keep a fresh answer found for `text` under the epoch `guru` was read with."""
    if not question.stale:
        kept = Question(**{name: getattr(question, name) for name in _REPLAYED})
        _put(("answer", guru.pk, guru.answers_epoch, version, text), kept)

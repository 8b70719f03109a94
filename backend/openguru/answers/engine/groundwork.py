"""Everything an answer needs before its first LLM round trip, in one worker-thread hop: the
platform settings, the exact-match answer cache, the binge history and, when no earlier answer
can be reused, retrieval with the near-duplicate lookup beside its dense searches and the types
of the sources it found."""

import time
from collections.abc import Callable
from dataclasses import dataclass, field

from django.conf import settings

from openguru.answers.answer_memo import answer_memo_put
from openguru.answers.engine.providers import Providers
from openguru.answers.engine.retrieval import RetrievalResult, answer_mode, retrieve
from openguru.answers.engine.trace import Clock
from openguru.answers.engine.versions import UNVERSIONED, VersionChoice, version_choose
from openguru.answers.models import Binge, Question
from openguru.answers.selectors import binge_history, question_find_same, question_find_similar
from openguru.core.models import PlatformSettings
from openguru.gurus.models import Guru
from openguru.sources.selectors import source_types

ANSWER_MODES = ("default", "fast")  # fast: one LLM round trip before the first token


@dataclass(frozen=True)
class AskRequest:
    guru: Guru
    question: str
    source: str = Question.Source.USER
    binge: Binge | None = None
    parent: Question | None = None
    mode: str = ""  # "" -> settings.ANSWER_MODE
    received_at: float | None = None  # time.perf_counter() when the channel got the question
    short_answer: bool = False  # API channels: a shorter answer (ANSWER_SHORT_MAX_WORDS)
    # Earlier (question, answer) turns a client keeps itself (an OpenAI-style chat), used in
    # place of the binge's. The answer depends on them, so it must be saved in a binge (a fresh
    # one will do): answers inside a binge are never reused for another asker.
    history: tuple[tuple[str, str], ...] = ()
    # False: never replay an earlier answer; every ask is answered and saved as a question of
    # its own (the chat bots, whose analytics count each ask and whose threads each root one).
    reuse_answers: bool = True
    # The documentation version the caller chose (a selector); "": named in the question, else
    # the guru's default (`answers/engine/versions.py`).
    version: str = ""
    # An answer to serve again found in the process's memo (`answers/answer_memo.py`) while
    # the ask was prepared: nothing is read or searched for it.
    remembered: Question | None = None

    def __post_init__(self) -> None:
        if self.history and self.binge is None:
            raise ValueError("An answer given with history must be saved in a binge.")


@dataclass
class Groundwork:
    platform: PlatformSettings
    existing: Question | None  # the same question answered before (maybe stale)
    history: list[tuple[str, str]]  # earlier (question, answer) pairs: the client's or the binge's
    retrieval: RetrievalResult | None = None  # None when `reusable`: nothing was searched
    similar: Question | None = None  # a near-duplicate earlier answer, when the cache may be used
    source_types: dict[int, str] = field(default_factory=dict)  # of the candidates' sources
    # The version read: earlier answers of another version are never reused.
    version: VersionChoice = UNVERSIONED

    @property
    def reusable(self) -> bool:
        return self.existing is not None and not self.existing.stale

    @property
    def earlier_questions(self) -> list[str]:
        return [question for question, _ in self.history]

    @property
    def vector(self) -> list[float]:
        return (self.retrieval.query_vector if self.retrieval else None) or []


OnSearching = Callable[[list[str]], None]  # gets the binge's earlier questions


def groundwork_gather(
    *, request: AskRequest, providers: Providers, clock: Clock, on_searching: OnSearching
) -> Groundwork:
    """Blocking: run it in a worker thread. `on_searching` is called (from that thread) once the
    searches are under way, never when an earlier answer is reused."""
    platform = platform_settings()
    use_cache = request.reuse_answers and request.binge is None and platform.answer_cache_enabled
    history = list(request.history)  # kept by the client; the binge it is saved in starts empty
    if not history and request.binge is not None:
        history = binge_history(binge=request.binge)
    version = version_choose(
        guru=request.guru,
        question=request.question,
        explicit=request.version,
        inherited=request.parent.version if request.parent is not None else "",
    )
    work = Groundwork(
        platform=platform,
        existing=question_find_same(
            guru=request.guru, text=request.question, version=version.version
        )
        if use_cache
        else None,
        history=history,
        version=version,
    )
    clock.lap("prepare_ms")
    if work.reusable:
        assert work.existing is not None
        answer_memo_put(
            guru=request.guru,
            text=request.question,
            version=version.version,
            question=work.existing,
        )
        return work
    earlier = [question for question, _ in work.history]
    look_for_similar = use_cache and work.existing is None

    def find_similar(vector: list[float]) -> None:
        if look_for_similar:
            work.similar = question_find_similar(
                guru=request.guru,
                text=request.question,
                vector=vector,
                min_similarity=work.platform.similar_question_threshold,
                version=version.version,
            )

    work.retrieval = retrieve(
        collection=request.guru.collection_name,
        queries=_query_variants(request, work, earlier),
        mode=answer_mode(providers.reranker),
        limit=settings.RETRIEVAL_CANDIDATES,
        embedder=providers.embedder,
        store=providers.store,
        reranker=providers.reranker,
        where=version.where,
        while_searching=find_similar,
        on_started=lambda: on_searching(earlier),
    )
    # Read here, in the same thread hop, so the references' icons cost no extra hop later.
    found = {candidate.hit.source_id for candidate in work.retrieval.candidates}
    work.source_types = source_types(source_ids=found)
    clock.lap("retrieve_ms")
    return work


def _query_variants(request: AskRequest, work: Groundwork, earlier: list[str]) -> list[str]:
    """What to search for: the user's words first, then other wordings of the same question
    that are at hand without waiting for an LLM."""
    variants = [request.question]
    if work.existing is not None:  # a stale answer being regenerated: its prettified question
        variants.append(work.existing.question)
    if earlier:  # a follow-up ("and how do I undo it?") leans on the previous question
        variants.append(f"{earlier[-1]} {request.question}")
    return variants


_SETTINGS_TTL_SECONDS = 5.0
_settings_cache: tuple[float, PlatformSettings] | None = None


def platform_settings() -> PlatformSettings:
    """The thresholds row, re-read at most every few seconds: one query less per answer."""
    global _settings_cache
    now = time.monotonic()
    if _settings_cache is None or now - _settings_cache[0] > _SETTINGS_TTL_SECONDS:
        _settings_cache = (now, PlatformSettings.objects.get_or_create(pk=1)[0])
    return _settings_cache[1]

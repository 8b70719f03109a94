"""One evaluation run: index each dataset's corpus, rank its questions in every mode, score
them, and collect the gate's refusals for in-scope and out-of-scope questions."""

import threading
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from typing import Any

from django.conf import settings

from openguru.answers.engine.fusion import FusionSettings
from openguru.answers.engine.retrieval import Mode
from openguru.answers.quality.calibration import CALIBRATION_QUESTIONS, guru_trust_calibrate
from openguru.core.models import PlatformSettings
from openguru.evaluation.answer_quality import answer_record, score_quotes
from openguru.evaluation.comparison import comparison_records
from openguru.evaluation.concurrency import ordered_map
from openguru.evaluation.corpus_index import (
    ChunkSettings,
    EvalIndex,
    eval_index_build,
    index_fingerprint,
)
from openguru.evaluation.datasets import BeirDataset, Query
from openguru.evaluation.metrics import METRIC_NAMES, has_relevant, summarize
from openguru.evaluation.near_duplicates import near_duplicate_record
from openguru.evaluation.refusal import REFUSAL_MODE, GateSettings, RefusalPair, Refusals
from openguru.evaluation.runner import QueryRunner, Ranked
from openguru.evaluation.selection import (
    corpus_selection,
    first_queries,
    in_scope_queries,
    judged_queries,
    unanswerable_queries,
)
from openguru.providers.embeddings.base import Embedder, question_encoder
from openguru.providers.rerank.base import Reranker
from openguru.providers.vectorstore.base import VectorStore

PROGRESS_EVERY_SECONDS = 10.0
Log = Callable[[str], None]


@dataclass(frozen=True)
class RunOptions:
    modes: tuple[Mode, ...]
    chunking: ChunkSettings
    limit_queries: int | None = None
    max_docs: int | None = None
    workers: int = 1  # questions asked at the same time


@dataclass(frozen=True)
class Providers:
    embedder: Embedder
    store: VectorStore
    reranker: Reranker | None
    gate: GateSettings


@dataclass
class DatasetResult:
    dataset: BeirDataset
    index: EvalIndex
    runner: QueryRunner
    records: list[dict[str, Any]] = field(default_factory=list)
    in_scope: list[Refusals] = field(default_factory=list)
    unanswerable: list[Refusals] = field(default_factory=list)
    answers: list[dict[str, Any]] = field(default_factory=list)  # answer quality (answer_record)
    # (mode, level) -> query id -> metric -> value, for comparing modes question by question
    per_query: dict[tuple[str, str], dict[str, dict[str, float]]] = field(default_factory=dict)
    comparisons: list[dict[str, Any]] = field(default_factory=list)  # comparison_records
    calibrated: float | None = None  # the guru's calibrated trust threshold (refusal runs)
    near_duplicates: dict[str, Any] | None = None  # near_duplicate_record
    seconds: dict[str, float] = field(default_factory=dict)  # stage -> wall time
    queries_run: dict[str, int] = field(default_factory=dict)  # stage -> questions asked

    @property
    def refusal_measured(self) -> bool:
        return bool(self.in_scope)


def evaluate_dataset(
    dataset: BeirDataset, options: RunOptions, providers: Providers, log: Log
) -> DatasetResult:
    judged = judged_queries(dataset, options.limit_queries)
    records, subset_ids = corpus_selection(dataset, options.max_docs, judged)
    fingerprint = index_fingerprint(
        corpus_sha256=dataset.corpus_sha256(),
        doc_ids=subset_ids,
        chunking=options.chunking,
        embedder_model=providers.embedder.model_name,
        bm25_analyzer=settings.MILVUS_BM25_ANALYZER,
    )
    index = eval_index_build(
        dataset_name=dataset.name,
        records=records,
        fingerprint=fingerprint,
        chunking=options.chunking,
        embedder=providers.embedder,
        store=providers.store,
        log=log,
    )
    runner = QueryRunner(
        index=index,
        embedder=providers.embedder,
        store=providers.store,
        reranker=providers.reranker,
        gate=providers.gate,
        rank_pages=dataset.page_qrels is not None,
    )
    result = DatasetResult(dataset=dataset, index=index, runner=runner)
    result.seconds["index"] = index.seconds
    if REFUSAL_MODE in options.modes:
        _calibrate(result, providers, log)
    for mode in options.modes:
        _evaluate_mode(result, mode, judged, options, log)
    result.comparisons = _mode_comparisons(result)
    if REFUSAL_MODE in options.modes:
        _collect_own_refusals(result, options, log)
        if dataset.answers:
            _score_answers(result, options, log)
        result.near_duplicates = near_duplicate_record(
            dataset=dataset.name,
            questions=[q.text for q in first_queries(dataset.queries, options.limit_queries)],
            embedder=result.runner.embedder,
            threshold=PlatformSettings().similar_question_threshold,
        )
    return result


# (mode, versus): hybrid against each single mode, and the reranker against what it reranks
COMPARED_MODES = (("hybrid", "dense"), ("hybrid", "bm25"), ("hybrid_rerank", "hybrid"))


def _mode_comparisons(result: DatasetResult) -> list[dict[str, Any]]:
    """Hybrid minus each single mode that ran (and reranked hybrid minus hybrid), per level,
    with bootstrap intervals."""
    records: list[dict[str, Any]] = []
    for (mode, level), ours in result.per_query.items():
        for versus in (other for compared, other in COMPARED_MODES if compared == mode):
            theirs = result.per_query.get((versus, level))
            if theirs is not None:
                records += comparison_records(
                    dataset=result.dataset.name,
                    level=level,
                    mode=mode,
                    versus=versus,
                    ours=ours,
                    theirs=theirs,
                )
    return records


def _evaluate_mode(
    result: DatasetResult, mode: Mode, judged: Sequence[Query], options: RunOptions, log: Log
) -> None:
    dataset = result.dataset
    started = time.monotonic()
    label = f"[{dataset.name}] {mode}"
    ranked = _rank_all(result.runner, judged, mode, label, options.workers, log)
    result.seconds[mode] = time.monotonic() - started
    result.queries_run[mode] = len(judged)
    run_settings = _record_settings(result, options)
    levels = [("doc", dataset.qrels)]
    if dataset.page_qrels is not None:
        levels.append(("page", dataset.page_qrels))
    for level, qrels in levels:
        rankings = {q.query_id: (r.docs if level == "doc" else r.pages) for q, r in ranked}
        summary = summarize(rankings, qrels)
        result.per_query[(mode, level)] = summary.per_query
        skipped = sum(1 for q in dataset.queries if not has_relevant(qrels.get(q.query_id)))
        result.records.append(
            {
                "dataset": dataset.name,
                "mode": mode,
                "level": level,
                "settings": run_settings,
                "queries": summary.queries,
                "skipped_queries": skipped,
                **{name: round(summary.means[name], 4) for name in METRIC_NAMES},
            }
        )
    if mode == REFUSAL_MODE:
        outside = dataset.unanswerable_ids
        result.in_scope.extend(
            r.refusals for q, r in ranked if q.query_id not in outside and r.refusals is not None
        )


def _rank_all(
    runner: QueryRunner,
    queries: Sequence[Query],
    mode: Mode,
    label: str,
    workers: int,
    log: Log,
) -> list[tuple[Query, Ranked]]:
    progress = _Progress(label, len(queries), log)

    def rank(query: Query) -> Ranked:
        ranked = runner.rank(query.text, mode, gate=mode == REFUSAL_MODE)
        progress.step()
        return ranked

    ranked = ordered_map(rank, queries, workers=workers)
    progress.done()
    return list(zip(queries, ranked, strict=True))


def _calibrate(result: DatasetResult, providers: Providers, log: Log) -> None:
    """The guru's trust threshold, calibrated as after an ingestion (and used by `quotes`)."""
    started = time.monotonic()
    result.calibrated = guru_trust_calibrate(
        guru=result.index.guru,
        embedder=providers.embedder,
        store=providers.store,
        reranker=providers.reranker,
    )
    result.seconds["calibration"] = time.monotonic() - started
    result.queries_run["calibration"] = CALIBRATION_QUESTIONS
    log(f"[{result.dataset.name}] calibrated trust threshold: {result.calibrated}")


def _collect_own_refusals(result: DatasetResult, options: RunOptions, log: Log) -> None:
    """In-scope questions without gold, and the dataset's own unanswerable ones, gate only."""
    dataset, limit, workers = result.dataset, options.limit_queries, options.workers
    judged_ids = {q.query_id for q in judged_queries(dataset, limit)}
    extra = [q for q in in_scope_queries(dataset, limit) if q.query_id not in judged_ids]
    unanswerable = unanswerable_queries(dataset, limit)
    started = time.monotonic()
    result.in_scope.extend(
        refusals_for(result.runner, extra, f"[{dataset.name}] in-scope gate", workers, log)
    )
    result.unanswerable.extend(
        refusals_for(
            result.runner, unanswerable, f"[{dataset.name}] unanswerable gate", workers, log
        )
    )
    result.seconds["refusal"] = time.monotonic() - started
    result.queries_run["refusal"] = len(extra) + len(unanswerable)


def _score_answers(result: DatasetResult, options: RunOptions, log: Log) -> None:
    """The extractive answer of every in-scope question that has a reference answer."""
    dataset = result.dataset
    questions = [
        q for q in in_scope_queries(dataset, options.limit_queries) if q.query_id in dataset.answers
    ]
    progress = _Progress(f"[{dataset.name}] extractive answers", len(questions), log)

    def score(query: Query) -> tuple[bool, dict[str, float]]:
        quotes = result.runner.quotes(query.text)
        progress.step()
        return quotes is not None, score_quotes(quotes, dataset.answers[query.query_id])

    started = time.monotonic()
    scored = ordered_map(score, questions, workers=options.workers)
    progress.done()
    result.answers.append(answer_record(dataset=dataset.name, scored=scored))
    result.seconds["answers"] = time.monotonic() - started
    result.queries_run["answers"] = len(questions)


def refusals_for(
    runner: QueryRunner, queries: Sequence[Query], label: str, workers: int, log: Log
) -> list[Refusals]:
    progress = _Progress(label, len(queries), log)

    def decide(query: Query) -> Refusals:
        decision = runner.refusals(query.text, REFUSAL_MODE)
        progress.step()
        return decision

    decisions = ordered_map(decide, queries, workers=workers)
    if queries:
        progress.done()
    return decisions


def own_refusal_pair(result: DatasetResult) -> RefusalPair | None:
    if not result.unanswerable or not result.in_scope:
        return None
    name = result.dataset.name
    return RefusalPair(
        corpus=name,
        out_of_scope=f"{name} (unanswerable)",
        in_scope=result.in_scope,
        outside=result.unanswerable,
        calibrated=result.calibrated,
    )


def cross_refusal_pair(
    result: DatasetResult, other: BeirDataset, options: RunOptions, log: Log
) -> RefusalPair:
    """Ask another dataset's questions to this corpus's guru: all of them are out of scope."""
    questions = first_queries(other.queries, options.limit_queries)
    label = f"[{result.dataset.name}] out-of-scope gate ({other.name})"
    started = time.monotonic()
    outside = refusals_for(result.runner, questions, label, options.workers, log)
    stage = f"out-of-scope {other.name}"
    result.seconds[stage] = time.monotonic() - started
    result.queries_run[stage] = len(questions)
    return RefusalPair(
        corpus=result.dataset.name,
        out_of_scope=other.name,
        in_scope=result.in_scope,
        outside=outside,
        calibrated=result.calibrated,
    )


def _record_settings(result: DatasetResult, options: RunOptions) -> dict[str, Any]:
    index = result.index
    return {
        "chunk_size_tokens": options.chunking.size_tokens,
        "chunk_overlap_tokens": options.chunking.overlap_tokens,
        "chunk_min_chars": options.chunking.min_chars,
        "embedder_model": result.runner.embedder.model_name,
        "question_encoder": question_encoder(result.runner.embedder),
        "passage_precision": index.passage_precision,
        "chunk_limit": result.runner.chunk_limit,
        **_fusion_settings(),
        "bm25_analyzer": settings.MILVUS_BM25_ANALYZER,
        "documents": index.documents,
        "chunks": index.chunks,
        "limit_queries": options.limit_queries,
        "max_docs": options.max_docs,
    }


def _fusion_settings() -> dict[str, Any]:
    fusion = FusionSettings.from_settings()
    pages = {
        "page_aggregation": settings.RETRIEVAL_PAGE_AGGREGATION,
        "unit_scoring": settings.RETRIEVAL_UNIT_SCORING,  # moves the gate, not the ranking
    }
    if fusion.method == "rrf":
        weight = "auto" if fusion.bm25_weight is None else fusion.bm25_weight
        return {"fusion": "rrf", "hybrid_bm25_weight": weight} | pages
    return {"fusion": fusion.method, "hybrid_dense_weight": fusion.dense_weight} | pages


class _Progress:
    def __init__(self, label: str, total: int, log: Log) -> None:
        self.label = label
        self.total = total
        self.log = log
        self.done_count = 0
        self.started = time.monotonic()
        self.last = self.started
        self.lock = threading.Lock()  # steps come from worker threads

    def step(self) -> None:
        with self.lock:
            self.done_count += 1
            now = time.monotonic()
            if now - self.last < PROGRESS_EVERY_SECONDS:
                return
            self.last = now
        self.log(f"{self.label}: {self.done_count}/{self.total} questions")

    def done(self) -> None:
        seconds = time.monotonic() - self.started
        rate = self.done_count / max(seconds, 1e-9)
        self.log(f"{self.label}: {self.done_count} questions in {seconds:.1f}s ({rate:.1f}/s)")

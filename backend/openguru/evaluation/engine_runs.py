"""`manage.py eval --engine-answers N`: each dataset's guru asked through the answer engine."""

import time
from collections.abc import Callable

from openguru.answers.engine.providers import providers_for
from openguru.evaluation.datasets import BeirDataset, Query
from openguru.evaluation.engine_answers import EngineAnswerRun, engine_answer_run
from openguru.evaluation.selection import in_scope_queries, unanswerable_queries
from openguru.evaluation.suite import DatasetResult, RunOptions


def engine_answer_runs(
    results: list[DatasetResult],
    cross_pairs: list[tuple[BeirDataset, BeirDataset]],
    per_dataset: int,
    run: RunOptions,
    log: Callable[[str], None],
) -> list[EngineAnswerRun]:
    """Up to `per_dataset` in-scope questions with a reference answer and as many out-of-scope
    ones of each dataset, asked through the answer engine with the configured LLM."""
    runs = []
    for result in results:
        dataset = result.dataset
        in_scope = [
            (query, dataset.answers[query.query_id])
            for query in in_scope_queries(dataset, None)
            if query.query_id in dataset.answers
        ][:per_dataset]
        source, asked = out_of_scope_for(dataset, cross_pairs)
        asked = asked[:per_dataset]
        if not in_scope and not asked:
            continue
        log(
            f"[{dataset.name}] engine answers: {len(in_scope)} in scope, {len(asked)} "
            f"out of scope ({source or 'none'})"
        )
        started = time.monotonic()
        runs.append(
            engine_answer_run(
                guru=result.index.guru,
                providers=providers_for(result.index.guru),
                dataset=dataset.name,
                in_scope=in_scope,
                out_of_scope=source,
                outside=asked,
                workers=run.workers,
            )
        )
        result.seconds["engine answers"] = time.monotonic() - started
        result.queries_run["engine answers"] = len(in_scope) + len(asked)
    return runs


def out_of_scope_for(
    dataset: BeirDataset, cross_pairs: list[tuple[BeirDataset, BeirDataset]]
) -> tuple[str, list[Query]]:
    """The questions this dataset's guru should refuse: its own unanswerable ones, else those
    of the first dataset the refusal step asks it (`_cross_pairs`)."""
    if dataset.unanswerable_ids:
        return f"{dataset.name} (unanswerable)", unanswerable_queries(dataset, None)
    partner = next((other for corpus, other in cross_pairs if corpus.name == dataset.name), None)
    return (partner.name, list(partner.queries)) if partner else ("", [])

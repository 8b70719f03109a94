"""Which questions an evaluation run asks and which corpus records it indexes."""

from collections.abc import Iterable, Sequence

from openguru.evaluation.datasets import BeirDataset, CorpusRecord, Query
from openguru.evaluation.metrics import has_relevant


def first_queries(items: Iterable[Query], limit: int | None) -> list[Query]:
    chosen = list(items)
    return chosen if limit is None else chosen[:limit]


def judged_queries(dataset: BeirDataset, limit: int | None) -> list[Query]:
    """Questions with gold at document or page level: the ones metrics are computed on."""
    page_qrels = dataset.page_qrels or {}
    return first_queries(
        (
            q
            for q in dataset.queries
            if has_relevant(dataset.qrels.get(q.query_id))
            or has_relevant(page_qrels.get(q.query_id))
        ),
        limit,
    )


def in_scope_queries(dataset: BeirDataset, limit: int | None) -> list[Query]:
    unanswerable = dataset.unanswerable_ids
    return first_queries((q for q in dataset.queries if q.query_id not in unanswerable), limit)


def unanswerable_queries(dataset: BeirDataset, limit: int | None) -> list[Query]:
    unanswerable = dataset.unanswerable_ids
    return first_queries((q for q in dataset.queries if q.query_id in unanswerable), limit)


def corpus_selection(
    dataset: BeirDataset, max_docs: int | None, queries: Sequence[Query]
) -> tuple[list[CorpusRecord], list[str] | None]:
    """The records to index, and their ids when that is not the whole corpus.

    A capped corpus keeps the gold documents of the evaluated questions besides its first
    `max_docs` records, so a quick run still has something to find.
    """
    records = list(dataset.corpus())
    if max_docs is None or max_docs >= len(records):
        return records, None
    gold = {doc_id for q in queries for doc_id in dataset.qrels.get(q.query_id, {})}
    kept = [r for i, r in enumerate(records) if i < max_docs or r.doc_id in gold]
    return kept, [r.doc_id for r in kept]

"""Answer quality, beside retrieval quality: for every answerable question with a reference
answer, what the extractive answer (the answer without an LLM) quotes is scored against it.

Two kinds of reference (`datasets.ReferenceAnswer`):
  spans (SQuAD): hit@k, 1 when the first k quoted sentences contain one of the gold strings,
    compared after SQuAD's normalisation (lowercase, no punctuation, no articles);
  prose (an FAQ's own answer): f1@k, SQuAD's token F1 between the first k quoted sentences and
    the reference answer.
A question the trust gate refuses scores 0; `answered` is the share that was not refused.
"""

import re
import string
from collections import Counter
from collections.abc import Sequence

from openguru.evaluation.datasets import ReferenceAnswer

QUOTE_CUTOFFS = (1, 3, 5)  # the extractive answer quotes at most 5 sentences
_ARTICLES = re.compile(r"\b(a|an|the)\b")
_PUNCTUATION = str.maketrans("", "", string.punctuation)


def normalize(text: str) -> str:
    """SQuAD's answer normalisation."""
    return " ".join(_ARTICLES.sub(" ", text.lower().translate(_PUNCTUATION)).split())


def contains_span(text: str, spans: Sequence[str]) -> bool:
    padded = f" {normalize(text)} "
    return any(f" {span} " in padded for span in map(normalize, spans) if span)


def token_f1(prediction: str, reference: str) -> float:
    """SQuAD's F1: token overlap (with multiplicity) between two normalised texts."""
    predicted, gold = normalize(prediction).split(), normalize(reference).split()
    common = sum((Counter(predicted) & Counter(gold)).values())
    if not common:
        return 0.0
    precision, recall = common / len(predicted), common / len(gold)
    return 2 * precision * recall / (precision + recall)


def metric_names(reference: ReferenceAnswer) -> tuple[str, ...]:
    kind = "hit" if reference.spans else "f1"
    return tuple(f"{kind}@{k}" for k in QUOTE_CUTOFFS)


def score_quotes(quotes: Sequence[str] | None, reference: ReferenceAnswer) -> dict[str, float]:
    """One question's scores; `quotes` None means the gate refused it."""
    scores: dict[str, float] = {}
    for name, k in zip(metric_names(reference), QUOTE_CUTOFFS, strict=True):
        text = " ".join(quotes[:k]) if quotes else ""
        if reference.spans:
            scores[name] = float(bool(text) and contains_span(text, reference.spans))
        else:
            scores[name] = token_f1(text, reference.prose) if text else 0.0
    return scores


def answer_record(
    *, dataset: str, scored: Sequence[tuple[bool, dict[str, float]]]
) -> dict[str, object]:
    """The mean of every metric over the questions, for eval.json's `answers` list."""
    names = dict.fromkeys(name for _, scores in scored for name in scores)
    count = len(scored)
    record: dict[str, object] = {
        "dataset": dataset,
        "answerer": "extractive",
        "questions": count,
        "answered": round(sum(answered for answered, _ in scored) / count, 4) if count else 0.0,
    }
    for name in names:
        values = [scores[name] for _, scores in scored if name in scores]
        record[name] = round(sum(values) / len(values), 4)
    return record

"""How a guru does on its golden set: recall@5 and the refusal rate, measured with the answers'
own retrieval and trust gate, and no LLM call.

Per question: the answers' hybrid retrieval (`answers.engine.retrieval.retrieve`, reranked when a
reranker is configured), its candidates merged into passages as
`answers.engine.search.passages_search`
returns them, and the gate the answer engine applies (`answers.engine.gate.answer_gate` with the
platform's threshold and margin). The relevance the gate reads is the reranker's, else the
calibrated cosine: in default mode without a reranker the engine would first ask the LLM to
judge relevance, which a run after every re-index should not pay for.
"""

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from django.conf import settings

from openguru.answers.engine.ask import check_index_model
from openguru.answers.engine.context import Context, build_contexts
from openguru.answers.engine.gate import answer_gate, guru_threshold
from openguru.answers.engine.providers import Providers
from openguru.answers.engine.retrieval import answer_mode, retrieve
from openguru.core.models import PlatformSettings
from openguru.evaluation.models import GoldenPair
from openguru.gurus.models import Guru
from openguru.providers.vectorstore.base import SearchFilter
from openguru.sources.versions import guru_default_version, version_filter

TOP_K = 5
Details = list[dict[str, Any]]


@dataclass(frozen=True)
class GoldenMeasurement:
    recall_at_5: float
    refusal_rate: float
    details: Details  # one entry per pair: where its source ranked, whether the gate refused


def golden_measure(
    *,
    guru: Guru,
    pairs: Sequence[GoldenPair],
    providers: Providers,
    platform: PlatformSettings,
    only_version: str = "",
) -> GoldenMeasurement:
    """Blocking. Every pair's question retrieved and gated as an answer would be; with
    `only_version`, only the pairs measured in that version."""
    check_index_model(guru, providers.embedder)
    default = guru_default_version(guru=guru)
    filters: dict[str, SearchFilter | None] = {}  # one per version, built once
    details = []
    for pair in pairs:
        # Measured in its expected source's version (an unversioned one: the default), as an
        # answer of that version would retrieve it.
        version = pair.expected_source.version or default
        if only_version and version != only_version:
            continue
        if version not in filters:
            filters[version] = version_filter(guru=guru, version=version)
        details.append(_measure_pair(guru, pair, providers, platform, version, filters[version]))
    return GoldenMeasurement(
        recall_at_5=_share(details, "found_rank"),
        refusal_rate=_share(details, "refused"),
        details=details,
    )


def _measure_pair(
    guru: Guru,
    pair: GoldenPair,
    providers: Providers,
    platform: PlatformSettings,
    version: str,
    where: SearchFilter | None,
) -> dict[str, Any]:
    result = retrieve(
        collection=guru.collection_name,
        queries=[pair.question],
        mode=answer_mode(providers.reranker),
        limit=settings.RETRIEVAL_CANDIDATES,
        embedder=providers.embedder,
        store=providers.store,
        reranker=providers.reranker,
        where=where,
    )
    top = build_contexts(result.candidates, max_text=TOP_K, max_code=TOP_K)[:TOP_K]
    rank = next((i for i, c in enumerate(top, start=1) if passage_matches(pair, c)), None)
    decision = answer_gate(
        result.candidates,
        threshold=guru_threshold(guru, setting=platform.trust_score_threshold),
        margin=platform.trust_score_margin,
    )
    return {
        "pair_id": pair.pk,
        "question": pair.question,
        "expected_source_id": pair.expected_source_id,
        "expected_link": pair.expected_link,
        "version": version,
        "found_rank": rank,
        "refused": not decision.passed,
        "best": round(decision.best, 4),
        "top": [
            {
                "source_id": c.source_id,
                "title": c.title,
                "link": c.link,
                "relevance": round(c.relevance, 4),
            }
            for c in top
        ],
    }


def passage_matches(pair: GoldenPair, passage: Context) -> bool:
    """The passage comes from the expected source and, when one was named, the expected page
    (a link without `#…` names the whole page) or FAQ entry (titled with its question)."""
    if passage.source_id != pair.expected_source_id:
        return False
    if pair.origin == GoldenPair.Origin.FAQ:
        return passage.title == pair.question
    if not pair.expected_link:
        return True
    if "#" in pair.expected_link:
        return passage.link == pair.expected_link
    return passage.link.split("#", 1)[0] == pair.expected_link


def golden_by_version(details: Details) -> dict[str, dict[str, float]]:
    """Recall@5 and the refusal rate of each documentation version's pairs ({}: unversioned)."""
    versions = sorted({d.get("version", "") for d in details} - {""})
    return {
        version: {
            "pairs": len(mine := [d for d in details if d.get("version") == version]),
            "recall_at_5": _share(mine, "found_rank"),
            "refusal_rate": _share(mine, "refused"),
        }
        for version in versions
    }


def _share(details: Details, key: str) -> float:
    if not details:
        return 0.0
    hits = sum(1 for d in details if d[key] not in (None, False))
    return round(hits / len(details), 4)


def regression_reason(
    previous: Details, current: Details, *, recall_margin: float, refusal_margin: float
) -> str:
    """Why this run looks worse than the previous one, or "" when it does not. Compared on the
    questions both runs asked, so adding or removing pairs is never read as a regression."""
    before_by_id = _by_pair(previous)
    after_by_id = _by_pair(current)
    common = sorted(before_by_id.keys() & after_by_id.keys())
    if not common:
        return ""
    before = [before_by_id[i] for i in common]
    after = [after_by_id[i] for i in common]
    reasons = []
    recall = (_share(before, "found_rank"), _share(after, "found_rank"))
    if recall[0] - recall[1] > recall_margin + 1e-9:
        lost = [a["question"] for b, a in zip(before, after, strict=True) if _lost(b, a)]
        reasons.append(
            f"recall@5 fell from {recall[0]:.2f} to {recall[1]:.2f} (margin {recall_margin:.2f})"
            + (f"; no longer found: {_quoted(lost)}" if lost else "")
        )
    refusal = (_share(before, "refused"), _share(after, "refused"))
    if refusal[1] - refusal[0] > refusal_margin + 1e-9:
        reasons.append(
            f"refusal rate rose from {refusal[0]:.2f} to {refusal[1]:.2f} "
            f"(margin {refusal_margin:.2f})"
        )
    if not reasons:
        return ""
    scope = f" over the {len(common)} questions both runs asked"
    return ("; ".join(reasons) + scope)[:500]


def _by_pair(details: Details) -> Mapping[int, dict[str, Any]]:
    return {d["pair_id"]: d for d in details if isinstance(d.get("pair_id"), int)}


def _lost(before: Mapping[str, Any], after: Mapping[str, Any]) -> bool:
    return before["found_rank"] is not None and after["found_rank"] is None


def _quoted(questions: list[str], limit: int = 3) -> str:
    shown = ", ".join(f'"{q[:80]}"' for q in questions[:limit])
    return shown + (f" and {len(questions) - limit} more" if len(questions) > limit else "")

"""The refusal section: does a crawled documentation guru refuse what is not its own, end to
end? A guru is made and fed through the admin API (the Python docs served on loopback, crawled
as a website source; no LLM, so answers are extractive), calibrated as after any ingestion, then
asked through the answer API its own FAQ (the Python FAQ, whose pages it crawled) and another
project's (the Django FAQ). Target: at least half of the other project's questions refused, at
most a tenth of its own. Each question's gate score is also read (the answers' own retrieval
and `gate_score`), for the separation and the threshold that would have met the target."""

import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

from django.conf import settings
from openguru.answers.engine.gate import gate_score, guru_threshold
from openguru.answers.engine.providers import providers_for
from openguru.answers.engine.retrieval import answer_mode, retrieve
from openguru.core.models import PlatformSettings
from openguru.evaluation.datasets import default_eval_dir, load_dataset
from openguru.evaluation.refusal import separation_auc
from openguru.gurus.models import Guru
from openguru.integrations.apikeys.services import admin_token_owner
from rest_framework.test import APIClient

from benchmarks.config import RefusalPlan, SiteScope

Log = Callable[[str], None]
SLUG = "python-docs-refusal"
OWN, OTHER = "python-docs-faq", "django-docs-faq"
OWN_BUDGET, OTHER_TARGET = 0.10, 0.50  # at most this share of its own refused; at least that


def run_refusal(
    *, site_url: str, plan: RefusalPlan, log: Log, questions: dict[str, list[str]] | None = None
) -> dict[str, Any]:
    """`questions`: {"own": [...], "other": [...]} in place of the two FAQs (tests)."""
    client = APIClient()
    client.force_authenticate(user=admin_token_owner())
    started = time.perf_counter()
    source = _crawl(client, site_url, plan.scope, log)
    index_s = time.perf_counter() - started
    guru = Guru.objects.get(slug=SLUG)
    asked = questions or {
        "own": _questions(OWN, plan.own_questions),
        "other": _questions(OTHER, plan.other_questions),
    }
    scores = {kind: [_score(guru, q) for q in questions] for kind, questions in asked.items()}
    refused = {kind: [_refused(client, q) for q in questions] for kind, questions in asked.items()}
    platform = PlatformSettings.objects.get_or_create(pk=1)[0]
    own, other = scores["own"], scores["other"]
    result = {
        "scope": plan.scope.label,
        "pages": source["last_result"].get("pages_fetched"),
        "chunks": source["last_result"].get("chunks_total"),
        "index_s": round(index_s, 1),
        "calibrated_threshold": guru.calibrated_trust_threshold,
        "threshold": guru_threshold(guru, setting=platform.trust_score_threshold),
        "own_questions": len(own),
        "other_questions": len(other),
        "refused_own": _share(refused["own"]),
        "refused_other": _share(refused["other"]),
        "target_met": _share(refused["other"]) >= OTHER_TARGET
        and _share(refused["own"]) <= OWN_BUDGET,
        "auc": round(separation_auc(own, other), 4),
        "hindsight": _hindsight(own, other),
        "answered_other": _picked(asked["other"], refused["other"], want=False),
        "refused_own_examples": _picked(asked["own"], refused["own"], want=True)[:10],
    }
    log(
        f"refusal: refused {result['refused_other']:.3f} of {OTHER} and "
        f"{result['refused_own']:.3f} of its own {OWN} (threshold {result['threshold']}, "
        f"AUC {result['auc']})"
    )
    return result


def _crawl(client: APIClient, site_url: str, scope: SiteScope, log: Log) -> dict[str, Any]:
    client.delete(f"/api/gurus/{SLUG}/")  # a fresh guru each run: no saved answer is replayed
    made = client.post(
        "/api/gurus/",
        {"slug": SLUG, "name": "Python (refusal)", "domain_knowledge": "The Python 3.11 docs"},
        format="json",
    )
    _expect(made.status_code == 201, made)
    # Every question comes from one visitor: no hourly or daily cap on them.
    limits = {"anonymous_asks_per_hour": 0, "anonymous_asks_per_day": 0}
    changed = client.patch(f"/api/gurus/{SLUG}/", limits, format="json")
    _expect(changed.status_code == 200, changed)
    options: dict[str, Any] = {"max_pages": scope.max_pages}
    if scope.include_patterns:
        options["include_patterns"] = list(scope.include_patterns)
    log(f"refusal: crawling {site_url} ({scope.label}) through the admin API")
    added = client.post(
        f"/api/gurus/{SLUG}/sources/",
        {
            "type": "website",
            "url": f"{site_url}/index.html",
            "crawl_mode": "crawl",
            "options": options,
        },
        format="json",
    )
    _expect(added.status_code == 201, added)
    source_id = added.json()["id"]
    while True:  # the task runs eagerly in the request; a queue would finish it later
        source = client.get(f"/api/gurus/{SLUG}/sources/{source_id}/").json()
        if source["status"] in ("SUCCESS", "FAILED"):
            break
        time.sleep(1)
    _expect(source["status"] == "SUCCESS", source)
    return source


def _expect(ok: bool, what: Any) -> None:
    if not ok:
        body = what.content[:500] if hasattr(what, "content") else what
        raise RuntimeError(f"refusal section: unexpected answer from the API: {body!r}")


def _questions(dataset: str, limit: int) -> list[str]:
    queries = load_dataset(Path(default_eval_dir()) / dataset).queries
    texts = [q.text for q in queries]
    return texts[:limit] if limit else texts


def _score(guru: Guru, question: str) -> float:
    providers = providers_for(guru)
    candidates = retrieve(
        collection=guru.collection_name,
        queries=[question],
        mode=answer_mode(providers.reranker),
        limit=settings.RETRIEVAL_CANDIDATES,
        embedder=providers.embedder,
        store=providers.store,
        reranker=providers.reranker,
    ).candidates
    return gate_score(candidates)


def _refused(client: APIClient, question: str) -> bool:
    response = client.post(f"/api/gurus/{SLUG}/answer/", {"question": question}, format="json")
    _expect(response.status_code == 200, response)
    return bool(response.json()["refused"])


def _picked(questions: list[str], refused: list[bool], *, want: bool) -> list[str]:
    return [q for q, r in zip(questions, refused, strict=True) if r == want]


def _share(flags: list[bool]) -> float:
    return round(sum(flags) / len(flags), 4) if flags else 0.0


def _hindsight(own: list[float], other: list[float]) -> dict[str, float]:
    """The highest threshold that refuses at most OWN_BUDGET of its own questions, and what it
    would have refused of the other project's."""
    ordered = sorted(own)
    allowed = int(OWN_BUDGET * len(ordered))  # own questions it may refuse
    threshold = ordered[allowed] if ordered else 0.0
    return {
        "threshold": round(threshold, 4),
        "refused_own": _share([s < threshold for s in own]),
        "refused_other": _share([s < threshold for s in other]),
    }

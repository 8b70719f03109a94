"""The refusal section crawls a site into a guru through the admin API, then asks it its own
FAQ and another project's through the answer API, and reports what it refused."""

import pytest
from benchmarks.config import RefusalPlan, SiteScope
from benchmarks.refusal import SLUG, run_refusal
from openguru.gurus.models import Guru

from tests.fakes.docs_site import SMALL_DOCS, DocsSite

pytestmark = pytest.mark.django_db(transaction=True)


def test_a_crawled_guru_refuses_another_projects_questions_and_answers_its_own():
    questions = {
        "own": ["Does it work at night?", "Who maintains Acme?"],
        "other": ["How do I add middleware to a Django project?"],
    }
    with DocsSite(SMALL_DOCS) as site:
        result = run_refusal(
            site_url=site.url,
            plan=RefusalPlan(SiteScope(())),
            log=lambda _: None,
            questions=questions,
        )

    assert result["pages"] >= 3 and result["chunks"] > 0
    assert (result["own_questions"], result["other_questions"]) == (2, 1)
    assert result["refused_own"] == 0.0 and result["refused_other"] == 1.0
    assert result["target_met"] and result["auc"] == 1.0
    assert result["answered_other"] == [] and result["refused_own_examples"] == []
    assert set(result["hindsight"]) == {"threshold", "refused_own", "refused_other"}
    guru = Guru.objects.get(slug=SLUG)
    assert guru.sources.get().type == "website"
    assert guru.questions.count() == 2  # asked through the answer API, and saved

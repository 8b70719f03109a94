"""Docs gaps: refused and low-trust questions grouped by meaning with the real local embedder
(all-MiniLM-L6-v2, offline): paraphrases land together, different topics apart, the largest
group first, labelled by its frequent words."""

import numpy as np
import pytest
from openguru.answers.analytics.gaps import cluster_labels, gap_label
from openguru.providers.embeddings.factory import get_embedder

from tests.conftest import clear_provider_caches
from tests.console.conftest import ask, make_guru, refuse

PROXY = [
    "How do I use it behind a corporate proxy?",
    "Proxy settings for downloads behind a firewall",
    "Can I configure an HTTP proxy?",
    "It fails behind our company proxy server",
]
WINDOWS = [
    "Does it work on Windows?",
    "Can I run it on a Windows machine?",
    "Is Windows supported?",
]
PRICING = ["How much does the enterprise license cost?"]


@pytest.fixture
def local_embedder(settings):
    settings.EMBEDDING_PROVIDER = "local"
    settings.EMBEDDING_MODEL = "all-MiniLM-L6-v2"
    clear_provider_caches()
    try:
        yield get_embedder()
    finally:
        clear_provider_caches()


@pytest.mark.slow
def test_paraphrases_are_grouped_largest_first(admin_api, db, local_embedder):
    guru = make_guru(model=local_embedder.model_name, dimension=local_embedder.dimension)
    for n, text in enumerate(PROXY):  # refusals from several channels
        refuse(guru, text, days_ago=n % 3, source=("USER", "WIDGET", "SLACK")[n % 3])
    for text in WINDOWS:  # answered, but weakly; one with its saved vector
        question = ask(guru, text, days_ago=1, trust_score=0.2)
    question.vector = np.asarray(local_embedder.embed_query(WINDOWS[-1]), "<f4").tobytes()
    question.save(update_fields=["vector"])
    ask(guru, PRICING[0], days_ago=2, trust_score=0.3)
    ask(guru, "How do I install it?", days_ago=0, trust_score=0.9)  # well answered: no gap

    response = admin_api.get("/api/gurus/python/analytics/gaps/", {"interval": "7d"})
    assert response.status_code == 200, response.content
    clusters = response.json()["clusters"]
    assert [c["size"] for c in clusters] == [4, 3, 1]
    assert sorted(clusters[0]["examples"]) == sorted(PROXY)
    assert sorted(clusters[1]["examples"]) == sorted(WINDOWS)
    assert clusters[2]["examples"] == PRICING
    assert clusters[0]["label"].split(" · ")[0] == "proxy"
    assert clusters[1]["label"].split(" · ")[0] == "windows"


def test_no_weak_questions_no_gaps(admin_api, db):
    make_guru()
    response = admin_api.get("/api/gurus/python/analytics/gaps/", {"interval": "30d"})
    assert response.json() == {"clusters": []}


def test_clustering_cuts_at_the_similarity():
    unit = np.eye(3, dtype="<f4")
    near = unit[0] * 0.9 + unit[1] * 0.1
    vectors = np.vstack([unit[0], near / np.linalg.norm(near), unit[2]])
    labels = cluster_labels(vectors, similarity=0.9)
    assert labels[0] == labels[1] != labels[2]
    assert len(set(cluster_labels(vectors, similarity=0.999))) == 3
    assert cluster_labels(vectors[:1]) == [0]


def test_the_label_is_the_most_frequent_content_words():
    assert (
        gap_label(["Proxy for pip?", "The proxy is slow", "proxy and pip"]) == "proxy · pip · slow"
    )
    assert gap_label(["the and of"]) == "the and of"

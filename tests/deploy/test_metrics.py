"""/metrics after real work: an answer streamed by the loopback LLM through the ASGI app, a
refusal, an ingestion that succeeds and one that fails, and messages waiting in Redis."""

from collections.abc import Iterator

import httpx
import pytest
from django.test import Client
from openguru.providers.vectorstore.lite_server import free_port
from openguru.sources.models import DataSource
from openguru.sources.services import source_create
from openguru.sources.tasks import source_process_task
from prometheus_client.parser import text_string_to_metric_families

from tests.answers.conftest import PAGES, page_url
from tests.answers.test_answer_engine import IN_SCOPE, OUT_OF_SCOPE
from tests.answers.test_streaming_http import live_asgi  # noqa: F401  (fixture)
from tests.fakes.openai_server import FakeOpenAIServer
from tests.gurus.helpers import guru_make
from tests.integration.worker import REDIS_BROKER, purge, send_task

pytestmark = pytest.mark.django_db(transaction=True)

TOKEN = "metrics-test-token"
Samples = dict[tuple[str, frozenset[tuple[str, str]]], float]


@pytest.fixture
def metrics_on(settings) -> Iterator[None]:  # type: ignore[no-untyped-def]
    settings.METRICS_TOKEN = TOKEN
    settings.CELERY_BROKER_URL = REDIS_BROKER  # queue lengths are read from here
    purge(REDIS_BROKER)
    yield
    purge(REDIS_BROKER)


def scrape() -> Samples:
    response = Client().get("/metrics", HTTP_AUTHORIZATION=f"Bearer {TOKEN}")
    assert response.status_code == 200
    samples: Samples = {}
    for family in text_string_to_metric_families(response.content.decode()):
        for sample in family.samples:
            samples[(sample.name, frozenset(sample.labels.items()))] = sample.value
    return samples


def total(samples: Samples, name: str, **labels: str) -> float:
    wanted = set(labels.items())
    return sum(value for (n, have), value in samples.items() if n == name and wanted <= have)


def test_every_series_moves_after_an_answer_a_refusal_and_an_ingestion(
    metrics_on: None,
    live_asgi: str,  # noqa: F811
    llm_server: FakeOpenAIServer,
) -> None:
    before = scrape()
    guru = guru_make(slug="metered", name="Metered")
    for title, text in PAGES.items():
        source_create(
            guru=guru, type="text", url=page_url(title), title=title, content=f"# {title}\n\n{text}"
        )
    empty = DataSource.objects.create(guru=guru, type="text", url="https://x.example/e", content="")
    source_process_task.delay(empty.pk)  # nothing to index: a failed run
    assert DataSource.objects.get(pk=empty.pk).status == "FAILED"

    ask = f"{live_asgi}/api/gurus/metered/answer/"
    answered = httpx.post(ask, json={"question": IN_SCOPE, "mode": "fast"}, timeout=60).json()
    assert answered["refused"] is False and answered["references"]
    refused = httpx.post(ask, json={"question": OUT_OF_SCOPE, "mode": "fast"}, timeout=60).json()
    assert refused["refused"] is True
    for _ in range(2):
        send_task(REDIS_BROKER, "openguru.sources.tasks.source_process_task", 0)
    after = scrape()

    def grew(name: str, **labels: str) -> float:
        return total(after, name, **labels) - total(before, name, **labels)

    route = "api/gurus/<slug:slug>/answer/"
    assert grew("openguru_http_requests_total", route=route, method="POST", status="200") == 2
    assert grew("openguru_http_request_duration_seconds_count", route=route) == 2
    assert grew("openguru_answer_ttft_seconds_count", channel="USER") == 1
    assert grew("openguru_answer_ttft_seconds_sum") > 0
    assert grew("openguru_answer_refusals_total", reason="low_relevance") == 1
    assert grew("openguru_llm_request_duration_seconds_count", operation="stream") == 1
    assert grew("openguru_llm_request_duration_seconds_sum", model="fake-gpt") > 0
    assert grew("openguru_llm_tokens_total", kind="prompt") > 0
    assert grew("openguru_llm_tokens_total", kind="completion") > 0
    assert grew("openguru_ingestion_pages_total", source_type="text") == len(PAGES)
    assert grew("openguru_ingestion_chunks_total", source_type="text") >= len(PAGES)
    assert grew("openguru_ingestion_failures_total", source_type="text") == 1
    assert total(after, "openguru_celery_broker_up") == 1
    assert total(after, "openguru_celery_queue_length", queue="ingest") == 2
    assert total(after, "openguru_celery_queue_length", queue="light") == 0


def test_metrics_need_the_token(settings) -> None:  # type: ignore[no-untyped-def]
    settings.METRICS_TOKEN = ""
    assert Client().get("/metrics").status_code == 404  # off without a token
    settings.METRICS_TOKEN = TOKEN
    for header in ({}, {"HTTP_AUTHORIZATION": "Bearer wrong"}, {"HTTP_AUTHORIZATION": TOKEN}):
        response = Client().get("/metrics", **header)
        assert response.status_code == 401
        assert response.json()["code"] == "not_authenticated"


def test_a_broker_that_does_not_answer_is_a_reading_not_an_error(settings) -> None:  # type: ignore[no-untyped-def]
    settings.METRICS_TOKEN = TOKEN
    settings.CELERY_BROKER_URL = f"redis://127.0.0.1:{free_port()}/0"  # nothing listens
    settings.METRICS_BROKER_TIMEOUT_SECONDS = 0.5
    samples = scrape()
    assert total(samples, "openguru_celery_broker_up") == 0
    assert total(samples, "openguru_celery_queue_length") == 0

"""A worker is SIGKILLed while it summarizes a source, and again while it re-indexes one: the
broker hands each task to the next worker, and in the end every chunk is there once, the
vanished ones are gone, and the source and its guru have their summaries."""

import os
import re
import signal
import subprocess
from pathlib import Path

import pytest
from openguru.gurus.models import Guru
from openguru.providers.vectorstore.factory import get_vector_store
from openguru.sources.models import DataSource

from tests.fakes.docs_site import DocsSite
from tests.fakes.openai_server import FakeOpenAIServer
from tests.gurus.helpers import guru_make
from tests.integration.worker import AMQP_BROKER, celery_worker, purge, send_task, wait_until
from tests.reliability.platform import llm_env
from tests.sources.ingestion_helpers import source_process_now

pytestmark = [pytest.mark.django_db(transaction=True), pytest.mark.slow, pytest.mark.timeout(900)]

TASK = "openguru.sources.tasks.source_process_task"
WAIT_SECONDS = 300  # a worker takes seconds to start on an idle machine, a minute on a busy one
SUMMARY_CALL_MS = 4000  # a summary is still being written when the worker dies
SLOW_PAGE_SECONDS = 8.0  # a re-index is still crawling when the worker dies
# A new FAQ entry (new chunks) and a reworded one (a chunk that vanishes).
FAQ_CHANGES = {
    "  <form": (
        '  <h2 id="how-do-i-upgrade">How do I upgrade?</h2>\n'
        "  <p>Run the upgrade command; it keeps your settings and migrates stored data.</p>\n"
        "  <form"
    ),
    "Yes. Night launches": "Yes, and at dawn. Night and dawn launches",
}


def _change(page: Path) -> None:
    text = page.read_text()
    for old, new in FAQ_CHANGES.items():
        assert old in text
        text = text.replace(old, new, 1)
    page.write_text(text)


def _clean_count(site: DocsSite, slug: str) -> int:
    """The chunks of an uninterrupted run over the site as it is now (in this process)."""
    source = DataSource.objects.create(
        guru=guru_make(slug=slug, name=slug),
        type="website",
        url=site.url_for("index.html"),
        crawl_mode="crawl",
    )
    assert source_process_now(source_id=source.pk, token=f"{slug}-run").status == "done"
    return DataSource.objects.get(pk=source.pk).chunk_count


def _summaries_done(log: Path) -> int:
    text = log.read_text() if log.exists() else ""
    return len(re.findall(r"source_summarize_task\[[^\]]+\] succeeded in [^:]+: True", text))


def _summary_calls(llm: FakeOpenAIServer) -> int:
    prompts = [str(r.body.get("messages", [{}])[0].get("content", "")) for r in llm.requests]
    return sum(p.startswith("Summarize the following source '") for p in prompts)


def _kill(worker: subprocess.Popen) -> None:
    os.killpg(worker.pid, signal.SIGKILL)
    worker.wait()


def test_a_worker_killed_mid_summary_and_mid_reindex_loses_and_doubles_nothing(site, tmp_path):
    before = _clean_count(site, "killed-clean-before")
    faq = site.root / "faq.html"
    original = faq.read_text()
    _change(faq)
    after = _clean_count(site, "killed-clean-after")
    faq.write_text(original)
    assert after > before  # the change adds chunks, so a lost or doubled one shows

    guru: Guru = guru_make(slug="killed", name="Killed")
    source = DataSource.objects.create(
        guru=guru, type="website", url=site.url_for("index.html"), crawl_mode="crawl"
    )

    def row() -> DataSource:
        return DataSource.objects.get(pk=source.pk)

    store, log = get_vector_store(), tmp_path / "worker.log"
    with FakeOpenAIServer(call_ms=SUMMARY_CALL_MS) as llm:
        env = llm_env(llm, CRAWLER_CONCURRENCY="1")
        purge(AMQP_BROKER)
        # 1. Indexed, then killed while the summary is being written.
        with celery_worker(AMQP_BROKER, log_file=str(log), **env) as first:
            send_task(AMQP_BROKER, TASK, source.pk)
            wait_until(lambda: row().status == "SUCCESS", timeout=WAIT_SECONDS)
            wait_until(lambda: _summary_calls(llm) >= 1, timeout=WAIT_SECONDS)
            _kill(first)
        assert row().summary == "" and _summaries_done(log) == 0
        assert store.count(guru.collection_name, source_id=source.pk) == before

        # 2. The next worker gets the summary again; then a re-index, killed mid-crawl.
        with celery_worker(AMQP_BROKER, log_file=str(log), **env) as second:
            wait_until(lambda: _summaries_done(log) == 1, timeout=WAIT_SECONDS)
            _change(faq)
            # The changed page answers slowly, so the worker is surely mid-crawl while it waits:
            # a progress count would be a race (the unchanged pages go by in milliseconds).
            site.add_slow("/faq.html", SLOW_PAGE_SECONDS)
            site.reset_log()
            DataSource.objects.filter(pk=source.pk).update(status="NOT_PROCESSED", progress={})
            send_task(AMQP_BROKER, TASK, source.pk)

            def crawling() -> bool:
                return bool(site.requests_for("/faq.html")) and row().status == "PROCESSING"

            wait_until(crawling, timeout=WAIT_SECONDS)
            _kill(second)
        assert row().status == "PROCESSING"
        # The old index still answers while the run is unfinished.
        assert store.count(guru.collection_name, source_id=source.pk) >= before

        # 3. The next worker finishes the re-index, and summarizes the changed source.
        with celery_worker(AMQP_BROKER, log_file=str(log), **env):
            wait_until(lambda: row().status in ("SUCCESS", "FAILED"), timeout=WAIT_SECONDS)
            wait_until(lambda: _summaries_done(log) == 2, timeout=WAIT_SECONDS)

    done = row()
    assert done.status == "SUCCESS", done.error
    assert done.chunk_count == after
    assert store.count(guru.collection_name, source_id=source.pk) == after
    hits = store.source_chunks(guru.collection_name, source_id=source.pk, limit=1000)
    assert len({hit.id for hit in hits}) == len(hits) == after
    assert done.summary and Guru.objects.get(pk=guru.pk).summary

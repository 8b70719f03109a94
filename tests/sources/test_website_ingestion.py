"""A website source end to end: crawl a real site on loopback, re-crawl it, change a page, and
survive a worker killed mid-crawl."""

import os
import shutil
import signal
from pathlib import Path

import pytest
from openguru.gurus.models import Guru
from openguru.providers.vectorstore.base import SearchFilter
from openguru.providers.vectorstore.factory import get_vector_store
from openguru.sources.models import DataSource

from tests.fakes.docs_site import SMALL_DOCS, DocsSite
from tests.gurus.helpers import guru_make
from tests.integration.worker import AMQP_BROKER, celery_worker, purge, send_task, wait_until

pytestmark = pytest.mark.django_db(transaction=True)


@pytest.fixture
def site(tmp_path: Path):
    root = tmp_path / "site"
    shutil.copytree(SMALL_DOCS, root)
    with DocsSite(root) as served:
        yield served


def crawl(admin_client, site: DocsSite) -> DataSource:
    assert (
        admin_client.post(
            "/api/gurus/", {"slug": "docs", "name": "Docs"}, format="json"
        ).status_code
        == 201
    )
    response = admin_client.post(
        "/api/gurus/docs/sources/",
        {"type": "website", "url": site.url_for("index.html"), "crawl_mode": "crawl"},
        format="json",
    )
    assert response.status_code == 201, response.json()
    return DataSource.objects.get(pk=response.json()["id"])


def chunk_links(source: DataSource) -> set[str]:
    hits = get_vector_store().search_bm25(
        source.guru.collection_name, "the", limit=500, where=SearchFilter(source_ids=[source.pk])
    )
    return {hit.metadata["link"] for hit in hits}


def test_a_crawled_site_is_indexed_with_section_anchors(admin_client, site):
    source = crawl(admin_client, site)
    source.refresh_from_db()
    assert source.status == "SUCCESS", source.error
    assert source.progress["pages_fetched"] >= 5
    links = chunk_links(source)
    assert site.url_for("intro.html#getting-started") in links
    assert not any("private" in link for link in links), "robots.txt disallows /private/"
    assert (
        get_vector_store().count(source.guru.collection_name, source_id=source.pk)
        == source.chunk_count
    )


def test_recrawling_an_unchanged_site_embeds_nothing(admin_client, site):
    source = crawl(admin_client, site)
    site.reset_log()
    admin_client.post(f"/api/gurus/docs/sources/{source.pk}/reindex/")
    source.refresh_from_db()
    assert source.status == "SUCCESS", source.error
    assert source.last_result["chunks_embedded"] == 0
    assert source.last_result["chunks_new"] == 0
    assert source.last_result["chunks_deleted"] == 0
    assert source.last_result["pages_skipped"] >= 5
    assert site.requests_for("/intro.html")[-1].header("If-None-Match")


def test_changing_one_page_reembeds_only_that_page(admin_client, site):
    source = crawl(admin_client, site)
    before = source.chunk_count
    page = site.root / "intro.html"
    page.write_text(page.read_text().replace("Installation", "Installation and upgrades", 1))
    admin_client.post(f"/api/gurus/docs/sources/{source.pk}/reindex/")
    source.refresh_from_db()
    result = source.last_result
    assert source.status == "SUCCESS", source.error
    assert 1 <= result["chunks_embedded"] <= result["chunks_new"]
    assert result["pages_fetched"] == 1  # the changed page; the others answered 304
    assert result["pages_skipped"] >= 5
    assert source.chunk_count == before
    assert get_vector_store().count(source.guru.collection_name, source_id=source.pk) == before


@pytest.mark.slow
def test_a_worker_killed_mid_crawl_resumes_without_loss_or_duplicates(site):
    clean_guru = guru_make(slug="clean", name="Clean")
    clean = DataSource.objects.create(
        guru=clean_guru, type="website", url=site.url_for("index.html"), crawl_mode="crawl"
    )
    from tests.sources.ingestion_helpers import source_process_now

    assert source_process_now(source_id=clean.pk, token="clean-run").status == "done"
    clean.refresh_from_db()

    for path in ("tutorial/index.html", "api.html", "faq.html"):
        site.add_slow(f"/{path}", 1.5)  # long enough to kill the worker in the middle
    guru: Guru = guru_make(slug="killed", name="Killed")
    source = DataSource.objects.create(
        guru=guru, type="website", url=site.url_for("index.html"), crawl_mode="crawl"
    )
    broker = AMQP_BROKER
    purge(broker)

    def row() -> DataSource:
        return DataSource.objects.get(pk=source.pk)

    with celery_worker(broker, CRAWLER_CONCURRENCY="1") as first:
        send_task(broker, "openguru.sources.tasks.source_process_task", source.pk)
        wait_until(lambda: row().status == "PROCESSING", timeout=60)
        wait_until(lambda: row().progress.get("pages_fetched", 0) >= 1, timeout=60)
        os.killpg(first.pid, signal.SIGKILL)
        first.wait()
    assert row().status == "PROCESSING"

    with celery_worker(broker):  # RabbitMQ redelivers the unacknowledged task
        done = wait_until(lambda: (r := row()).status in ("SUCCESS", "FAILED") and r, timeout=120)
    assert done.status == "SUCCESS", done.error
    assert done.chunk_count == clean.chunk_count
    assert get_vector_store().count(guru.collection_name, source_id=source.pk) == clean.chunk_count

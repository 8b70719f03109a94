"""Ingestion end to end: the admin API, the processing task, the real loaders and Milvus Lite.

Sources go in the way an admin adds them (JSON, or a multipart `file` for PDFs); the task runs
eagerly in this process, except in the last test, where a real Celery worker takes it from Redis.
Failures are in test_ingestion_failures.py; inputs and readers in ingestion_helpers.py.
"""

import re
from pathlib import Path

import pytest
from django.core.files.base import ContentFile
from openguru.gurus.models import Guru
from openguru.sources.models import DataSource
from pytest_django.fixtures import Settings
from rest_framework.test import APIClient

from tests.fakes.youtube_server import TALK_ID, TALK_TITLE, FakeYouTubeServer
from tests.gurus.helpers import guru_make
from tests.integration.worker import REDIS_BROKER, celery_worker, purge, send_task, wait_until
from tests.sources.ingestion_helpers import (
    ANIMALS,
    PDF_TITLE,
    add,
    best_bm25_hit,
    chunks_of,
    detail_of,
    guide_pdf,
    guru,
    make_repo,
    reindex,
    snapshot,
    upload,
    videos,
    widgets_module,
    youtube,
)

pytestmark = pytest.mark.django_db(transaction=True)
__all__ = ["guru", "videos", "youtube"]  # fixtures, used by name


# --- PDFs -----------------------------------------------------------------------------------------


def test_an_uploaded_pdf_is_chunked_per_page_and_linked_to_its_page(
    admin_client: APIClient, guru: Guru
) -> None:
    response = upload(admin_client, "savanna-guide.pdf", guide_pdf())
    assert response.status_code == 201, response.json()
    detail = detail_of(admin_client, response.json()["id"])
    assert detail["status"] == "SUCCESS", detail
    assert detail["user_error"] == ""

    chunks = chunks_of(guru, detail["id"])
    assert len(chunks) == detail["chunk_count"] == detail["last_result"]["chunks_total"]
    pages = set()
    for chunk in chunks:
        match = re.search(r"savanna-guide[^/#]*\.pdf#page=(\d+)$", chunk.metadata["link"])
        assert match, chunk.metadata["link"]
        assert int(match.group(1)) == chunk.metadata["page"]
        assert chunk.metadata["title"] == PDF_TITLE
        pages.add(chunk.metadata["page"])
    assert pages == {1, 2, 3, 4}
    for number, animal in enumerate(ANIMALS, start=1):
        hit = best_bm25_hit(guru, detail["id"], f"{animal} handbook")
        assert hit.metadata["link"].endswith(f"#page={number}"), (animal, hit.metadata)
        assert f"the {animal} handbook" in hit.text


def test_a_private_pdf_is_searchable_but_links_nowhere(admin_client: APIClient, guru: Guru) -> None:
    response = upload(admin_client, "internal-guide.pdf", guide_pdf(), private=True)
    assert response.status_code == 201, response.json()
    detail = detail_of(admin_client, response.json()["id"])
    assert detail["status"] == "SUCCESS", detail
    assert detail["private"] is True

    chunks = chunks_of(guru, detail["id"])
    assert chunks
    assert {chunk.metadata["link"] for chunk in chunks} == {""}
    assert {chunk.metadata["doc_link"] for chunk in chunks} == {""}
    assert "cheetah handbook" in best_bm25_hit(guru, detail["id"], "cheetah").text


# --- git repositories -----------------------------------------------------------------------------


def test_a_git_repository_is_indexed_with_line_links_and_reindexing_it_embeds_nothing(
    admin_client: APIClient, guru: Guru, tmp_path: Path
) -> None:
    module = widgets_module()
    make_repo(
        tmp_path / "widgets",
        {
            "src/widgets/core.py": module,
            "README.md": "# Widgets\n\nSmall dashboard components for savanna rangers.\n",
        },
    )
    url = (tmp_path / "widgets").as_uri()
    response = add(admin_client, type="github_repo", url=url)
    assert response.status_code == 201, response.json()
    detail = detail_of(admin_client, response.json()["id"])
    assert detail["status"] == "SUCCESS", detail

    chunks = chunks_of(guru, detail["id"])
    code = [chunk for chunk in chunks if chunk.type == "code"]
    assert len(code) >= 2, "the module is long enough for several chunks"
    lines = module.splitlines()
    for chunk in code:
        link = chunk.metadata["link"]
        match = re.fullmatch(
            re.escape(url) + r"/blob/trunk/src/widgets/core\.py#L(\d+)-L(\d+)", link
        )
        assert match, link
        first, last = int(match.group(1)), int(match.group(2))
        assert 1 <= first <= last <= len(lines)
        body = chunk.text.split("\n\n", 1)[1]  # after the "repo: path" context prefix
        assert body in "\n".join(lines[first - 1 : last]), (link, body[:80])
    assert any(chunk.metadata["link"].startswith(f"{url}/blob/trunk/README.md") for chunk in chunks)

    before = snapshot(guru, detail["id"])
    again = reindex(admin_client, detail["id"])
    assert again["status"] == "SUCCESS", again
    assert again["last_result"]["chunks_embedded"] == 0
    assert again["last_result"]["chunks_new"] == 0
    assert again["last_result"]["chunks_deleted"] == 0
    assert again["chunk_count"] == detail["chunk_count"]
    assert again["reindex_count"] == 1
    assert snapshot(guru, detail["id"]) == before


# --- YouTube --------------------------------------------------------------------------------------


def test_a_youtube_transcript_is_indexed_with_links_to_the_moment(
    admin_client: APIClient,
    guru: Guru,
    youtube: FakeYouTubeServer,
    settings: Settings,
) -> None:
    settings.YOUTUBE_BASE_URL = youtube.url
    watch = f"https://www.youtube.com/watch?v={TALK_ID}"
    response = add(admin_client, type="youtube", url=watch)
    assert response.status_code == 201, response.json()
    detail = detail_of(admin_client, response.json()["id"])
    assert detail["status"] == "SUCCESS", detail

    chunks = chunks_of(guru, detail["id"])
    starts = set()
    for chunk in chunks:
        match = re.fullmatch(re.escape(watch) + r"&t=(\d+)s", chunk.metadata["link"])
        assert match, chunk.metadata["link"]
        assert int(match.group(1)) == chunk.metadata["start_s"]
        assert chunk.metadata["title"] == TALK_TITLE
        starts.add(chunk.metadata["start_s"])
    assert len(starts) >= 3, "a three-minute talk is cut into about a minute each"
    hit = best_bm25_hit(guru, detail["id"], "topic130")
    start = hit.metadata["start_s"]
    assert start <= 130 < start + 60, hit.metadata
    assert hit.metadata["link"].endswith(f"&t={start}s")


# --- a real worker --------------------------------------------------------------------------------


@pytest.mark.slow
def test_a_real_celery_worker_indexes_a_git_repository_and_skips_it_when_unchanged(
    tmp_path: Path,
) -> None:
    make_repo(tmp_path / "widgets", {"src/widgets/core.py": widgets_module()}, branch="main")
    url = (tmp_path / "widgets").as_uri()
    guru = guru_make(slug="worker-git", name="Worker git")
    source = DataSource.objects.create(guru=guru, type="github_repo", url=url)

    def settled(reindex_count: int) -> DataSource | None:
        row = DataSource.objects.get(pk=source.pk)
        done = row.status in ("SUCCESS", "FAILED") and row.reindex_count == reindex_count
        return row if done else None

    purge(REDIS_BROKER)
    with celery_worker(REDIS_BROKER):
        send_task(REDIS_BROKER, "openguru.sources.tasks.source_process_task", source.pk)
        first = wait_until(lambda: settled(0), timeout=120)
        assert first.status == "SUCCESS", first.error
        DataSource.objects.filter(pk=source.pk).update(status="NOT_PROCESSED")
        send_task(REDIS_BROKER, "openguru.sources.tasks.source_process_task", source.pk)
        second = wait_until(lambda: settled(1), timeout=120)

    assert first.chunk_count >= 2
    assert first.last_result["chunks_embedded"] == first.chunk_count
    assert first.claimed_by == ""
    chunks = chunks_of(guru, source.pk)
    assert len(chunks) == first.chunk_count
    for chunk in chunks:
        assert re.fullmatch(
            re.escape(url) + r"/blob/main/src/widgets/core\.py#L\d+-L\d+",
            chunk.metadata["link"],
        ), chunk.metadata["link"]
    assert second.status == "SUCCESS", second.error
    assert second.last_result["chunks_embedded"] == 0
    assert second.chunk_count == first.chunk_count


@pytest.mark.slow
def test_a_real_celery_worker_indexes_a_pdf_and_a_youtube_transcript(
    youtube: FakeYouTubeServer,
) -> None:
    guru = guru_make(slug="worker-media", name="Worker media")
    pdf = DataSource(guru=guru, type="pdf", url="pdf://worker/guide.pdf", title="Guide")
    pdf.file.save("guide.pdf", ContentFile(guide_pdf()), save=False)
    pdf.url = pdf.file.url
    pdf.save()
    watch = f"https://www.youtube.com/watch?v={TALK_ID}"
    video = DataSource.objects.create(guru=guru, type="youtube", url=watch)

    def settled() -> list[DataSource] | None:
        rows = list(DataSource.objects.filter(guru=guru).order_by("pk"))
        return rows if all(r.status in ("SUCCESS", "FAILED") for r in rows) else None

    purge(REDIS_BROKER)
    # Sources of one guru run one at a time: the second waits for the first and comes back.
    with celery_worker(REDIS_BROKER, YOUTUBE_BASE_URL=youtube.url):
        for source in (pdf, video):
            send_task(REDIS_BROKER, "openguru.sources.tasks.source_process_task", source.pk)
        done_pdf, done_video = wait_until(settled, timeout=180)

    assert done_pdf.status == "SUCCESS", done_pdf.error
    assert done_video.status == "SUCCESS", done_video.error
    assert all(re.search(r"#page=\d+$", c.metadata["link"]) for c in chunks_of(guru, pdf.pk))
    assert all(
        re.fullmatch(re.escape(watch) + r"&t=\d+s", c.metadata["link"])
        for c in chunks_of(guru, video.pk)
    )

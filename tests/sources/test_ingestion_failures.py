"""Bad inputs through the whole pipeline: each ends FAILED with a reason a non-technical admin can
act on, and leaves every chunk already in the guru as it was: another source's, and the source's
own from its last good run (which stay searchable until a run succeeds).
"""

import shutil
from pathlib import Path

import pytest
from openguru.gurus.models import Guru
from openguru.sources.models import DataSource
from pytest_django.fixtures import Settings
from rest_framework.test import APIClient

from tests.fakes.youtube_server import (
    NO_CAPTIONS_ID,
    TALK_ID,
    TALK_TITLE,
    FakeVideo,
    FakeYouTubeServer,
)
from tests.sources.ingestion_helpers import (
    add,
    assert_failed_for_a_reason,
    bystander,
    chunks_of,
    detail_of,
    guide_pdf,
    guru,
    make_repo,
    media_files,
    reindex,
    snapshot,
    upload,
    videos,
    widgets_module,
    youtube,
)

pytestmark = pytest.mark.django_db(transaction=True)
__all__ = ["bystander", "guru", "videos", "youtube"]  # fixtures, used by name


# --- bad inputs: FAILED, with a reason, and nothing else touched ----------------------------------


def test_a_text_file_named_pdf_fails_and_touches_nothing(
    admin_client: APIClient, guru: Guru, bystander: int
) -> None:
    others = snapshot(guru, bystander)
    notes = b"Meeting notes\n\nWe agreed to count the bison herd again on Monday.\n"

    response = upload(admin_client, "meeting-notes.pdf", notes)
    assert response.status_code == 201, response.json()
    failed = detail_of(admin_client, response.json()["id"])
    assert_failed_for_a_reason(failed, "not a PDF")
    assert chunks_of(guru, failed["id"]) == []

    indexed = detail_of(admin_client, upload(admin_client, "guide.pdf", guide_pdf()).json()["id"])
    assert indexed["status"] == "SUCCESS", indexed
    kept = snapshot(guru, indexed["id"])
    Path(DataSource.objects.get(pk=indexed["id"]).file.path).write_bytes(notes)
    assert_failed_for_a_reason(reindex(admin_client, indexed["id"]), "not a PDF")
    assert snapshot(guru, indexed["id"]) == kept
    assert detail_of(admin_client, indexed["id"])["chunk_count"] == len(kept)
    assert snapshot(guru, bystander) == others


def test_an_encrypted_pdf_fails_and_touches_nothing(
    admin_client: APIClient, guru: Guru, bystander: int
) -> None:
    others = snapshot(guru, bystander)
    locked = guide_pdf(password="ranger-secret")

    response = upload(admin_client, "locked-guide.pdf", locked)
    assert response.status_code == 201, response.json()
    failed = detail_of(admin_client, response.json()["id"])
    assert_failed_for_a_reason(failed, "password")
    assert chunks_of(guru, failed["id"]) == []

    indexed = detail_of(admin_client, upload(admin_client, "guide.pdf", guide_pdf()).json()["id"])
    assert indexed["status"] == "SUCCESS", indexed
    kept = snapshot(guru, indexed["id"])
    Path(DataSource.objects.get(pk=indexed["id"]).file.path).write_bytes(locked)
    assert_failed_for_a_reason(reindex(admin_client, indexed["id"]), "password")
    assert snapshot(guru, indexed["id"]) == kept
    assert snapshot(guru, bystander) == others


def test_a_video_without_transcript_fails_and_touches_nothing(
    admin_client: APIClient,
    guru: Guru,
    bystander: int,
    youtube: FakeYouTubeServer,
    videos: dict[str, FakeVideo],
    settings: Settings,
) -> None:
    settings.YOUTUBE_BASE_URL = youtube.url
    others = snapshot(guru, bystander)

    response = add(admin_client, type="youtube", url=f"https://youtu.be/{NO_CAPTIONS_ID}")
    assert response.status_code == 201, response.json()
    failed = detail_of(admin_client, response.json()["id"])
    assert_failed_for_a_reason(failed, "transcript")
    assert chunks_of(guru, failed["id"]) == []

    talk = add(admin_client, type="youtube", url=f"https://www.youtube.com/watch?v={TALK_ID}")
    indexed = detail_of(admin_client, talk.json()["id"])
    assert indexed["status"] == "SUCCESS", indexed
    kept = snapshot(guru, indexed["id"])
    videos[TALK_ID] = FakeVideo(title=TALK_TITLE)  # its captions were turned off since
    assert_failed_for_a_reason(reindex(admin_client, indexed["id"]), "transcript")
    assert snapshot(guru, indexed["id"]) == kept
    assert snapshot(guru, bystander) == others


def test_a_git_url_that_does_not_exist_fails_and_touches_nothing(
    admin_client: APIClient, guru: Guru, bystander: int, tmp_path: Path
) -> None:
    others = snapshot(guru, bystander)

    missing = (tmp_path / "no-such-repository").as_uri()
    response = add(admin_client, type="github_repo", url=missing)
    assert response.status_code == 201, response.json()
    failed = detail_of(admin_client, response.json()["id"])
    assert_failed_for_a_reason(failed, "not found")
    assert chunks_of(guru, failed["id"]) == []

    make_repo(tmp_path / "widgets", {"src/widgets/core.py": widgets_module()})
    indexed = detail_of(
        admin_client,
        add(admin_client, type="github_repo", url=(tmp_path / "widgets").as_uri()).json()["id"],
    )
    assert indexed["status"] == "SUCCESS", indexed
    kept = snapshot(guru, indexed["id"])
    shutil.rmtree(tmp_path / "widgets")  # the repository was deleted since
    assert_failed_for_a_reason(reindex(admin_client, indexed["id"]), "not found")
    assert snapshot(guru, indexed["id"]) == kept
    assert snapshot(guru, bystander) == others


def test_an_oversize_pdf_is_refused_at_upload_and_fails_on_reindex(
    admin_client: APIClient, guru: Guru, bystander: int, settings: Settings
) -> None:
    others = snapshot(guru, bystander)
    big = guide_pdf(noise_pixels=1000)  # ~3 MB: the noise image does not compress
    assert len(big) > 2 * 1024 * 1024

    # Indexed while the limit was the default; the admin lowers it afterwards.
    indexed = detail_of(admin_client, upload(admin_client, "atlas.pdf", big).json()["id"])
    assert indexed["status"] == "SUCCESS", indexed
    kept = snapshot(guru, indexed["id"])
    settings.PDF_MAX_BYTES = 3 * 1024 * 1024 // 2  # 1.5 MB

    sources, files = DataSource.objects.count(), media_files()
    response = upload(admin_client, "atlas-second-edition.pdf", big)
    assert response.status_code == 413
    body = response.json()
    assert body["code"] == "file_too_large"
    assert "1.5 MB" in body["msg"], body  # the limit the admin configured, as a user reads it
    assert DataSource.objects.count() == sources
    assert media_files() == files, "a refused upload leaves no file behind"

    assert_failed_for_a_reason(reindex(admin_client, indexed["id"]), "1.5 MB")
    assert snapshot(guru, indexed["id"]) == kept
    assert snapshot(guru, bystander) == others

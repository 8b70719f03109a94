"""The disk fills up, on a real file system that really runs out of space (a small tmpfs):

- a repository's checkout no longer fits where clones are made, or no file can be created there
  (out of inodes): the re-index fails with a reason an admin can act on, the old index answers;
- the media folder is full: a PDF upload gets a JSON error (507, `disk_full`), not a 500, and
  leaves no partial file behind; once it fits, an upload works again;
- the disk of the embedded vector store is full (Milvus Lite then acknowledges writes it loses):
  a re-index is refused before it writes anything, the old chunks keep answering, and once there
  is room again the source indexes as before."""

import base64
import os
import subprocess
import tempfile
from collections.abc import Iterator
from pathlib import Path

import pytest
from git import Repo
from openguru.gurus.models import Guru
from openguru.providers.vectorstore.factory import get_vector_store
from openguru.providers.vectorstore.lite_server import free_port, start_lite_server
from openguru.sources.models import DataSource
from rest_framework.test import APIClient

from tests.reliability.small_disk import fill, small_disk
from tests.sources.ingestion_helpers import (
    add,
    assert_failed_for_a_reason,
    detail_of,
    guide_pdf,
    guru,
    make_repo,
    reindex,
    upload,
)

pytestmark = pytest.mark.django_db(transaction=True)
__all__ = ["guru"]  # a fixture, used by name

DISK_BYTES = 1024 * 1024
GUIDE = "# Owls\n\nBarn owls hunt voles at dusk and swallow them whole.\n"
DISK_FULL = {"code": "disk_full", "msg": "The server's disk is full, so the file could not be "
             "stored. Free some space, then upload it again."}  # fmt: skip


@pytest.fixture
def full_disk(tmp_path: Path) -> Iterator[Path]:
    """A 1 MiB tmpfs."""
    with small_disk(tmp_path / "small-disk", size=DISK_BYTES) as disk:
        yield disk


def _ask(client: APIClient, question: str) -> dict:
    response = client.post("/api/gurus/field-guide/answer/", {"question": question}, format="json")
    assert response.status_code == 200, response.json()
    return dict(response.json())


def _indexed_repo(client: APIClient, tmp_path: Path) -> tuple[Repo, dict]:
    repo = make_repo(tmp_path / "origin", {"docs/owls.md": GUIDE})
    created = add(client, type="github_repo", url=(tmp_path / "origin").as_uri())
    assert created.status_code == 201, created.json()
    indexed = detail_of(client, created.json()["id"])
    assert indexed["status"] == "SUCCESS", indexed
    assert "voles" in _ask(client, "What do barn owls hunt?")["content"]
    return repo, indexed


def _old_index_answers(client: APIClient, guru: Guru, failed: dict, indexed: dict) -> None:
    assert failed["chunk_count"] == indexed["chunk_count"]
    store = get_vector_store()
    assert store.count(guru.collection_name, source_id=indexed["id"]) == indexed["chunk_count"]
    # A new question, so it is searched for, not replayed: the old chunks still answer it.
    assert "voles" in _ask(client, "When do barn owls go hunting?")["content"]


def test_a_full_disk_fails_the_reindex_readably_and_the_old_index_still_answers(
    admin_client: APIClient, guru: Guru, full_disk: Path, tmp_path: Path, monkeypatch
) -> None:
    repo, indexed = _indexed_repo(admin_client, tmp_path)
    # The next commit brings 2.5 MB that no compression shrinks: its clone does not fit on the
    # disk clones are made on.
    big = tmp_path / "origin" / "docs" / "atlas.md"
    big.write_text("\n".join(base64.b64encode(os.urandom(48)).decode() for _ in range(40_000)))
    repo.index.add(["docs/atlas.md"])
    repo.index.commit("Add the atlas")
    monkeypatch.setattr(tempfile, "tempdir", str(full_disk))

    failed = reindex(admin_client, indexed["id"])

    assert_failed_for_a_reason(failed, "disk")
    _old_index_answers(admin_client, guru, failed, indexed)


def test_a_disk_out_of_files_fails_the_reindex_readably_too(
    admin_client: APIClient, guru: Guru, tmp_path: Path, monkeypatch
) -> None:
    # No inode left: creating the clone's folder fails with "no space" before git runs, an
    # OSError the loader does not expect, which the run still reports as a full disk.
    repo, indexed = _indexed_repo(admin_client, tmp_path)
    (tmp_path / "origin" / "docs" / "owls.md").write_text(GUIDE + "\nThey nest in barns.\n")
    repo.index.add(["docs/owls.md"])
    repo.index.commit("Where they nest")
    with small_disk(tmp_path / "no-inodes", size=DISK_BYTES, inodes=1) as disk:
        monkeypatch.setattr(tempfile, "tempdir", str(disk))
        failed = reindex(admin_client, indexed["id"])

    assert_failed_for_a_reason(failed, "the server's disk is full", "re-index")
    assert "No space left on device" in DataSource.objects.get(pk=indexed["id"]).error
    _old_index_answers(admin_client, guru, failed, indexed)


@pytest.mark.parametrize(
    "noise",
    [
        pytest.param(700, id="kept-in-memory"),  # ~1.5 MB: Django holds it in memory
        pytest.param(1000, id="spooled-to-a-temporary-file"),  # ~3 MB: over 2.5 MB, on disk
    ],
)
def test_an_upload_that_does_not_fit_gets_a_json_error_and_leaves_nothing(
    admin_client: APIClient, guru: Guru, full_disk: Path, settings, noise: int
) -> None:
    settings.MEDIA_ROOT = str(full_disk)
    big = guide_pdf(noise_pixels=noise)
    assert len(big) > DISK_BYTES

    response = upload(admin_client, "atlas.pdf", big)

    assert response.status_code == 507, response.content
    assert response.json() == DISK_FULL
    assert not DataSource.objects.filter(guru=guru).exists()
    # No partial file, nor the folder made for it (the one all uploads share may stay).
    assert [path.name for path in full_disk.rglob("*")] in ([], ["sources"])
    # What fits is stored and indexed as ever.
    small = upload(admin_client, "guide.pdf", guide_pdf())
    assert small.status_code == 201, small.json()
    assert detail_of(admin_client, small.json()["id"])["status"] == "SUCCESS"


@pytest.fixture
def milvus_on_small_disk(tmp_path: Path, settings) -> Iterator[Path]:
    """A Milvus Lite server of this test's own, its data file on a 16 MiB tmpfs."""
    with small_disk(tmp_path / "vector-disk", size=16 * DISK_BYTES) as disk:
        data_file = disk / "milvus.db"
        port = free_port()
        server = start_lite_server(data_file=data_file, port=port)
        settings.MILVUS_URI = f"http://127.0.0.1:{port}"
        settings.MILVUS_LITE_DATA = str(data_file)
        settings.INGEST_MIN_FREE_MB = 4
        get_vector_store.cache_clear()
        try:
            yield disk
        finally:
            get_vector_store().close()
            get_vector_store.cache_clear()
            server.terminate()
            try:
                server.wait(timeout=10)
            except subprocess.TimeoutExpired:
                server.kill()


def test_a_full_vector_store_disk_refuses_the_reindex_and_keeps_the_old_index(
    milvus_on_small_disk: Path, admin_client: APIClient, guru: Guru
) -> None:
    created = add(admin_client, type="text", title="Owls", content=GUIDE)
    indexed = detail_of(admin_client, created.json()["id"])
    assert indexed["status"] == "SUCCESS", indexed
    assert "voles" in _ask(admin_client, "What do barn owls hunt?")["content"]

    filler = fill(milvus_on_small_disk)
    failed = reindex(admin_client, indexed["id"])

    assert_failed_for_a_reason(failed, "the server's disk is full", "re-index")
    _old_index_answers(admin_client, guru, failed, indexed)

    filler.unlink()  # an admin frees some space
    again = reindex(admin_client, indexed["id"])
    assert again["status"] == "SUCCESS", again
    assert again["chunk_count"] == indexed["chunk_count"]

"""The disk a re-index writes to fills up: a repository's checkout no longer fits on a small
tmpfs. The source fails with a reason an admin can act on, and the previous index keeps
answering."""

import base64
import os
import subprocess
import tempfile
from collections.abc import Iterator
from pathlib import Path

import pytest
from openguru.gurus.models import Guru
from openguru.providers.vectorstore.factory import get_vector_store
from rest_framework.test import APIClient

from tests.sources.ingestion_helpers import (
    add,
    assert_failed_for_a_reason,
    detail_of,
    guru,
    make_repo,
    reindex,
)

pytestmark = pytest.mark.django_db(transaction=True)
__all__ = ["guru"]  # a fixture, used by name

DISK_BYTES = 1024 * 1024
GUIDE = "# Owls\n\nBarn owls hunt voles at dusk and swallow them whole.\n"


@pytest.fixture
def full_disk(tmp_path: Path) -> Iterator[Path]:
    """A 1 MiB tmpfs: a real file system that really runs out of space."""
    mount = tmp_path / "small-disk"
    mount.mkdir()
    mounted = subprocess.run(
        ["mount", "-t", "tmpfs", "-o", f"size={DISK_BYTES}", "tmpfs", str(mount)],
        capture_output=True,
        text=True,
    )
    if mounted.returncode != 0:
        pytest.skip(f"mounting a small tmpfs needs privileges: {mounted.stderr.strip()}")
    try:
        yield mount
    finally:
        subprocess.run(["umount", "-l", str(mount)], check=False)


def _ask(client: APIClient, question: str) -> dict:
    response = client.post("/api/gurus/field-guide/answer/", {"question": question}, format="json")
    assert response.status_code == 200, response.json()
    return dict(response.json())


def test_a_full_disk_fails_the_reindex_readably_and_the_old_index_still_answers(
    admin_client: APIClient, guru: Guru, full_disk: Path, tmp_path: Path, monkeypatch
) -> None:
    repo = make_repo(tmp_path / "origin", {"docs/owls.md": GUIDE})
    created = add(admin_client, type="github_repo", url=(tmp_path / "origin").as_uri())
    assert created.status_code == 201, created.json()
    source_id = created.json()["id"]
    indexed = detail_of(admin_client, source_id)
    assert indexed["status"] == "SUCCESS", indexed
    assert "voles" in _ask(admin_client, "What do barn owls hunt?")["content"]

    # The next commit brings 2.5 MB that no compression shrinks: its clone does not fit on the
    # disk clones are made on.
    big = tmp_path / "origin" / "docs" / "atlas.md"
    big.write_text("\n".join(base64.b64encode(os.urandom(48)).decode() for _ in range(40_000)))
    repo.index.add(["docs/atlas.md"])
    repo.index.commit("Add the atlas")
    monkeypatch.setattr(tempfile, "tempdir", str(full_disk))

    failed = reindex(admin_client, source_id)

    assert_failed_for_a_reason(failed, "disk")
    assert failed["chunk_count"] == indexed["chunk_count"]
    store = get_vector_store()
    assert store.count(guru.collection_name, source_id=source_id) == indexed["chunk_count"]
    # A new question, so it is searched for, not replayed: the old chunks still answer it.
    assert "voles" in _ask(admin_client, "When do barn owls go hunting?")["content"]

"""A hostile git repository through the whole pipeline, cloned over file://: symlink loops
(a link to itself, two links to each other, a directory linking to its parent, a link out of the
tree) and a 2 GB file. The source files are indexed; the links and the oversized file are
skipped, never followed, downloaded or written to disk."""

import contextlib
import os
import resource
import subprocess
from collections.abc import Iterator
from pathlib import Path

import pytest
from openguru.gurus.models import Guru
from rest_framework.test import APIClient

from tests.fuzz.malformed import GIGABYTE, commit_sparse_file
from tests.sources.ingestion_helpers import add, chunks_of, detail_of, guru, reindex, snapshot

pytestmark = [pytest.mark.django_db(transaction=True), pytest.mark.slow]
__all__ = ["guru"]  # fixtures, used by name

CORE = "def aardvark_burrow(depth: int) -> str:\n    return 'the aardvark digs at night'\n"
GIT_ENV = {
    **os.environ,
    "GIT_AUTHOR_NAME": "Test Author",
    "GIT_AUTHOR_EMAIL": "author@example.com",
    "GIT_COMMITTER_NAME": "Test Author",
    "GIT_COMMITTER_EMAIL": "author@example.com",
}


def _git(repo: Path, *args: str) -> str:
    done = subprocess.run(
        ["git", "-C", str(repo), *args], check=True, env=GIT_ENV, capture_output=True, text=True
    )
    return done.stdout


def hostile_repo(root: Path, secret: Path) -> Path:
    repo = root / "hostile"
    subprocess.run(["git", "init", "-q", "-b", "trunk", str(repo)], check=True)
    _git(repo, "config", "uploadpack.allowFilter", "true")  # as GitHub: clones may filter blobs
    (repo / "src").mkdir()
    (repo / "src" / "core.py").write_text(CORE)
    os.symlink("loop.py", repo / "loop.py")  # itself
    os.symlink("b.py", repo / "a.py")  # each other
    os.symlink("a.py", repo / "b.py")
    os.symlink("..", repo / "src" / "parent")  # a directory loop: src/parent/src/parent/...
    os.symlink(secret, repo / "src" / "secret.py")  # out of the tree
    _git(repo, "add", "-A")
    commit_sparse_file(repo, "data.py", 2 * GIGABYTE)
    # Plumbing, not `git commit`: that would hash the 2 GB working file again to refresh the
    # index's stat data.
    tree = _git(repo, "write-tree").strip()
    commit = _git(repo, "commit-tree", tree, "-m", "hostile").strip()
    _git(repo, "update-ref", "refs/heads/trunk", commit)
    assert _git(repo, "cat-file", "-s", "HEAD:data.py").strip() == str(2 * GIGABYTE)
    return repo


@contextlib.contextmanager
def files_capped_at(size: int) -> Iterator[None]:
    """No file this process or the git it runs writes may grow past `size` (EFBIG): the 2 GB
    file must be skipped without being downloaded or written out."""
    soft, hard = resource.getrlimit(resource.RLIMIT_FSIZE)
    resource.setrlimit(resource.RLIMIT_FSIZE, (size, hard))
    try:
        yield
    finally:
        resource.setrlimit(resource.RLIMIT_FSIZE, (soft, hard))


def test_symlink_loops_and_a_2gb_file_are_skipped(
    admin_client: APIClient, guru: Guru, tmp_path: Path
) -> None:
    secret = tmp_path / "outside.py"
    secret.write_text("TOKEN = 'never indexed'\n")
    repo = hostile_repo(tmp_path, secret)

    with files_capped_at(256 * 1024 * 1024):
        response = add(admin_client, type="github_repo", url=repo.as_uri())
        detail = detail_of(admin_client, response.json()["id"])
    assert detail["status"] == "SUCCESS", detail
    texts = [hit.text for hit in chunks_of(guru, detail["id"])]
    assert any("aardvark digs at night" in text for text in texts)
    assert not any("never indexed" in text for text in texts)
    paths = {hit.metadata.get("path") for hit in chunks_of(guru, detail["id"])}
    assert paths == {"src/core.py"}, paths

    # Re-run on the same commit: nothing cloned again, the index as it was.
    kept = snapshot(guru, detail["id"])
    again = reindex(admin_client, detail["id"])
    assert again["status"] == "SUCCESS", again
    assert snapshot(guru, detail["id"]) == kept

"""GitHubLoader on real git repositories built here and cloned over file://."""

import os
import tempfile
from collections.abc import Mapping
from pathlib import Path
from typing import Any

import pytest
from git import Actor, Repo
from openguru.core.errors import DomainError, ErrorCode
from openguru.sources.loaders.base import Document, LoadRequest, LoadResult
from openguru.sources.loaders.github import REPO_STATE_KEY, GitHubLoader
from pytest_django.fixtures import Settings

AUTHOR = Actor("Test Author", "author@example.com")
APP_PY = '''"""The app."""


def greet(name: str) -> str:
    return f"Hello {name}"


class Counter:
    def __init__(self) -> None:
        self.value = 0
'''


def commit(repo: Repo, files: Mapping[str, bytes | str], message: str) -> str:
    root = Path(repo.working_tree_dir or "")
    for name, content in files.items():
        path = root / name
        path.parent.mkdir(parents=True, exist_ok=True)
        if isinstance(content, bytes):
            path.write_bytes(content)
        else:
            path.write_text(content)
    repo.index.add(list(files))
    return repo.index.commit(message, author=AUTHOR, committer=AUTHOR).hexsha


@pytest.fixture
def origin(tmp_path: Path, settings: Settings) -> Repo:
    settings.GITHUB_MAX_FILE_BYTES = 2_000
    outside = tmp_path / "outside-secret.txt"
    outside.write_text("a secret outside the repository")
    repo = Repo.init(tmp_path / "origin", initial_branch="trunk")
    commit(
        repo,
        {
            "src/app.py": APP_PY,
            "README.md": "# Demo\n\nA demo project.\n\n## Usage\n\nRun it.\n",
            "docs/guide.rst": "Guide\n=====\n\nRead me.\n",
            "package.json": '{"name": "demo"}\n',
            "Dockerfile": "FROM python:3.11\n",
            "requirements-dev.txt": "pytest\n",
            "package-lock.json": '{"lockfileVersion": 3}\n',
            "node_modules/lib/index.js": "module.exports = 1;\n",
            ".venv/lib/site.py": "x = 1\n",
            "data/blob.txt": b"GIF89a\x00\x01\x02binary",
            "assets/logo.png": b"\x89PNG\r\n\x1a\n",
            "src/huge.py": "x = 1\n" * 1_000,  # 6 000 bytes, over the lowered limit
        },
        "initial",
    )
    (Path(repo.working_tree_dir or "") / "src/escape.txt").symlink_to(outside)
    repo.index.add(["src/escape.txt"])
    repo.index.commit("symlink out of the tree", author=AUTHOR, committer=AUTHOR)
    return repo


def url_of(repo: Repo) -> str:
    return Path(repo.working_tree_dir or "").as_uri()


def load(url: str, **request: Any) -> tuple[LoadResult, list[Document]]:
    result = GitHubLoader().load(
        LoadRequest(source_id=7, url=url, **request),
        on_progress=lambda _progress: None,
    )
    return result, list(result.documents)


def test_one_document_per_source_file_with_blob_links(origin: Repo) -> None:
    url = url_of(origin)

    _result, documents = load(url)

    by_path = {doc.metadata["path"]: doc for doc in documents}
    assert sorted(by_path) == [
        "Dockerfile",
        "README.md",
        "docs/guide.rst",
        "package.json",
        "requirements-dev.txt",
        "src/app.py",
    ]
    app = by_path["src/app.py"]
    assert app.link == f"{url}/blob/trunk/src/app.py"
    assert app.format == "code"
    assert app.text == APP_PY
    assert app.metadata == {
        "path": "src/app.py",
        "language": "python",
        "branch": "trunk",
        "repo_url": url,
    }
    assert by_path["README.md"].format == "markdown"
    assert by_path["docs/guide.rst"].format == "markdown"
    assert by_path["Dockerfile"].format == "code"


def test_commit_and_file_links_are_remembered(origin: Repo) -> None:
    result, documents = load(url_of(origin))

    assert result.fetch_state[REPO_STATE_KEY]["commit"] == origin.head.commit.hexsha
    assert result.fetch_state[REPO_STATE_KEY]["branch"] == "trunk"
    assert set(result.fetch_state) - {REPO_STATE_KEY} == {doc.link for doc in documents}


def test_unchanged_commit_yields_nothing_and_keeps_every_link(origin: Repo) -> None:
    first, documents = load(url_of(origin))

    second, again = load(url_of(origin), fetch_state=first.fetch_state)

    assert again == []
    assert second.unchanged_links == {doc.link for doc in documents}
    assert second.fetch_state == first.fetch_state


def test_new_commit_yields_only_changed_files(origin: Repo) -> None:
    first, documents = load(url_of(origin))
    new_sha = commit(origin, {"src/app.py": APP_PY + "\nVERSION = 2\n"}, "bump")

    second, changed = load(url_of(origin), fetch_state=first.fetch_state)

    assert [doc.metadata["path"] for doc in changed] == ["src/app.py"]
    assert "VERSION = 2" in changed[0].text
    assert second.unchanged_links == {doc.link for doc in documents} - {changed[0].link}
    assert second.fetch_state[REPO_STATE_KEY]["commit"] == new_sha


def test_branch_from_options(origin: Repo) -> None:
    origin.create_head("feature/search").checkout()
    commit(origin, {"src/search.py": "def search(q):\n    return [q]\n"}, "search")
    origin.heads.trunk.checkout()

    _result, documents = load(url_of(origin), options={"branch": "feature/search"})

    paths = {doc.metadata["path"] for doc in documents}
    assert "src/search.py" in paths
    search = next(doc for doc in documents if doc.metadata["path"] == "src/search.py")
    assert search.link == f"{url_of(origin)}/blob/feature/search/src/search.py"
    assert search.metadata["branch"] == "feature/search"


def test_private_repository_has_no_links(origin: Repo) -> None:
    _result, documents = load(url_of(origin), private=True)

    assert documents
    assert {doc.link for doc in documents} == {""}


def test_missing_repository_is_repo_not_found(tmp_path: Path) -> None:
    missing = (tmp_path / "no-such-repo").as_uri()

    with pytest.raises(DomainError) as error:
        load(missing)

    assert error.value.code == ErrorCode.REPO_NOT_FOUND
    assert str(tmp_path) not in error.value.msg


def test_missing_branch_is_repo_not_found(origin: Repo) -> None:
    with pytest.raises(DomainError) as error:
        load(url_of(origin), options={"branch": "does-not-exist"})

    assert error.value.code == ErrorCode.REPO_NOT_FOUND
    assert "does-not-exist" in error.value.msg


def test_file_urls_need_loopback_permission(origin: Repo, settings: Settings) -> None:
    settings.CRAWLER_ALLOW_LOOPBACK = False

    with pytest.raises(DomainError) as error:
        load(url_of(origin))

    assert error.value.code == ErrorCode.INVALID_INPUT


@pytest.mark.parametrize(
    "url",
    [
        "https://gitlab.com/owner/repo",
        "http://github.com/owner/repo",
        "https://github.com/owner",
        "https://github.com/owner/repo/tree/main/src",
        "ext::sh -c touch% /tmp/pwned",
    ],
)
def test_only_github_repository_links_are_accepted(url: str) -> None:
    with pytest.raises(DomainError) as error:
        load(url)

    assert error.value.code == ErrorCode.INVALID_INPUT


def test_clone_is_removed_after_reading(
    origin: Repo, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    scratch = tmp_path / "scratch"
    scratch.mkdir()
    monkeypatch.setattr(tempfile, "tempdir", str(scratch))

    load(url_of(origin))
    assert os.listdir(scratch) == []

    result = GitHubLoader().load(
        LoadRequest(source_id=7, url=url_of(origin)), on_progress=lambda _progress: None
    )
    next(result.documents)
    assert len(os.listdir(scratch)) == 1  # the clone exists while documents are read
    result.documents.close()  # type: ignore[attr-defined]  # the reader stops early
    assert os.listdir(scratch) == []

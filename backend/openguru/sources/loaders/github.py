"""GitHub codebase loader: a shallow clone of one branch, one Document per source file, linked
to the file on GitHub (`{repo}/blob/{branch}/{path}`; the chunker adds `#La-Lb`). The clone has
no working tree and leaves files over the size limit on the server: files are read from git's
object store, so symlinks are never followed and huge files never downloaded.

Re-runs are cheap: `git ls-remote` tells the branch's commit before anything is cloned, and an
unchanged commit yields nothing; a changed one yields only files whose content hash changed.
"""

import hashlib
import logging
import re
import tempfile
from collections.abc import Iterator, Mapping
from dataclasses import dataclass
from pathlib import Path, PurePosixPath
from urllib.parse import quote, urlsplit, urlunsplit

from django.conf import settings
from git import Git, GitCommandError, Repo

from openguru.core.disk import disk_full_error
from openguru.core.errors import DomainError, ErrorCode, TransientError
from openguru.sources.loaders.base import (
    Document,
    Format,
    LoadProgress,
    LoadRequest,
    LoadResult,
    ProgressCallback,
)

logger = logging.getLogger(__name__)

REPO_STATE_KEY = "__repo__"
_LS_REMOTE_TIMEOUT_SECONDS = 60.0
_CLONE_TIMEOUT_SECONDS = 600.0
# No credential prompt (it would hang the worker on a private or missing repository), no LFS
# downloads, and English messages to classify failures.
_GIT_ENV = {"GIT_TERMINAL_PROMPT": "0", "GIT_LFS_SKIP_SMUDGE": "1", "LC_ALL": "C"}
_BINARY_SNIFF_BYTES = 8000
_FILE_MODES = frozenset({"100644", "100755"})  # not 120000 (symlink) nor 160000 (submodule)

SKIPPED_DIRS = frozenset(
    {
        ".git", "node_modules", "vendor", "dist", "build", "target", "__pycache__", ".venv",
        "venv", "env", ".tox", ".nox", ".mypy_cache", ".pytest_cache", ".ruff_cache",
        "site-packages", "coverage", "htmlcov", ".next", ".nuxt", ".svelte-kit", ".gradle",
        ".idea", ".vscode", "bower_components", ".terraform", ".cache", "out",
    }
)  # fmt: skip
MANIFEST_NAMES = frozenset(
    {
        "Dockerfile", "Makefile", "package.json", "pyproject.toml", "setup.py", "setup.cfg",
        "go.mod", "Cargo.toml", "Gemfile", "Pipfile", "composer.json", "pom.xml",
        "build.gradle", "CMakeLists.txt", "Procfile", "docker-compose.yml", "tox.ini",
    }
)  # fmt: skip
# Generated files that match the extensions but only add noise to answers.
SKIPPED_NAMES = frozenset(
    {
        "package-lock.json", "yarn.lock", "pnpm-lock.yaml", "poetry.lock", "Cargo.lock",
        "composer.lock", "Gemfile.lock", "go.sum", "uv.lock", "Pipfile.lock",
    }
)  # fmt: skip
_SKIPPED_SUFFIXES = (".min.js", ".min.css", ".map")
_MARKDOWN_EXTENSIONS = frozenset({".md", ".markdown", ".mdx", ".rst"})
LANGUAGES = {
    ".py": "python", ".js": "javascript", ".jsx": "javascript", ".mjs": "javascript",
    ".ts": "typescript", ".tsx": "typescript", ".go": "go", ".rs": "rust", ".java": "java",
    ".kt": "kotlin", ".rb": "ruby", ".php": "php", ".c": "c", ".h": "c", ".cc": "cpp",
    ".cpp": "cpp", ".hpp": "cpp", ".cs": "csharp", ".swift": "swift", ".scala": "scala",
    ".sh": "shell", ".md": "markdown", ".markdown": "markdown", ".mdx": "markdown",
    ".rst": "rst", ".txt": "text", ".toml": "toml", ".yaml": "yaml", ".yml": "yaml",
    ".json": "json", ".cfg": "ini", ".ini": "ini", ".gradle": "groovy", ".sql": "sql",
    ".html": "html", ".css": "css", ".lua": "lua", ".proto": "proto",
}  # fmt: skip
_DISK_FULL = re.compile(
    r"no space left on device|disk quota exceeded|file too large", re.IGNORECASE
)
_NETWORK_FAILURES = re.compile(
    r"could not resolve host|failed to connect|connection (timed out|reset|refused)|"
    r"timed out|did not complete in|early eof|the remote end hung up|http/2 stream|gnutls|ssl",
    re.IGNORECASE,
)


@dataclass(frozen=True)
class _Remote:
    clone_url: str  # may carry credentials: never logged or shown
    repo_url: str  # public form, the base of every link
    repo_name: str
    branch: str
    commit: str


class GitHubLoader:
    def load(self, request: LoadRequest, *, on_progress: ProgressCallback) -> LoadResult:
        remote = _resolve(request)
        previous = request.fetch_state.get(REPO_STATE_KEY, {})
        result = LoadResult(documents=iter(()))
        if previous.get("commit") == remote.commit and previous.get("branch") == remote.branch:
            result.fetch_state = _typed_state(request.fetch_state)
            result.unchanged_links = _known_links(request)
            return result
        result.fetch_state[REPO_STATE_KEY] = {"commit": remote.commit, "branch": remote.branch}
        result.documents = _documents(remote, request, result, on_progress)
        return result


def _known_links(request: LoadRequest) -> set[str]:
    if request.private:
        return {""}  # every document of a private source has the empty link
    return {key for key in request.fetch_state if key != REPO_STATE_KEY}


# --- remote -------------------------------------------------------------------------------------


def _resolve(request: LoadRequest) -> _Remote:
    clone_url, repo_url = _checked_urls(request.url)
    branch = str(request.options.get("branch") or "").strip()
    if branch.startswith("-"):
        raise DomainError(ErrorCode.INVALID_INPUT, "That branch name is not valid.")
    branch, commit = _remote_head(clone_url, repo_url, branch)
    name = "/".join(PurePosixPath(urlsplit(repo_url).path).parts[-2:])
    return _Remote(clone_url, repo_url, name, branch, commit)


def _checked_urls(url: str) -> tuple[str, str]:
    """(URL to clone, public repository URL). https GitHub only. file:// reads this machine's
    own disk, the same trust as a loopback address, so it is allowed only where loopback
    targets are (tests, which clone repositories they build)."""
    parts = urlsplit(url.strip())
    if parts.scheme == "file" and settings.CRAWLER_ALLOW_LOOPBACK:
        return url.strip(), url.strip().rstrip("/")
    host = (parts.hostname or "").lower()
    path = parts.path.rstrip("/").removesuffix(".git")
    if parts.scheme != "https" or host not in ("github.com", "www.github.com"):
        raise DomainError(
            ErrorCode.INVALID_INPUT, "Only https://github.com/<owner>/<repository> links work."
        )
    if len(PurePosixPath(path).parts) != 3:  # "/", owner, repository
        raise DomainError(
            ErrorCode.INVALID_INPUT, "Link the repository itself: https://github.com/owner/repo."
        )
    public = urlunsplit(("https", "github.com", path, "", ""))
    return urlunsplit(("https", parts.netloc, path, "", "")), public


def _remote_head(clone_url: str, repo_url: str, branch: str) -> tuple[str, str]:
    """(branch, commit): the given branch, or the one the remote HEAD points to."""
    ref = f"refs/heads/{branch}" if branch else "HEAD"
    output = _git(["git", "ls-remote", "--symref", "--", clone_url, ref], repo_url)
    commit = ""
    for line in output.splitlines():
        target, _, name = line.partition("\t")
        if target.startswith("ref: ") and name == "HEAD" and not branch:
            branch = target.removeprefix("ref: refs/heads/")
        elif name == ref:
            commit = target
    if not commit and branch and ref != "HEAD":
        raise DomainError(ErrorCode.REPO_NOT_FOUND, f"The branch {branch!r} does not exist.")
    if not commit:
        raise DomainError(ErrorCode.NOTHING_TO_INDEX, "The repository is empty.")
    return branch or commit, commit


def _git(command: list[str], repo_url: str, *, timeout: float = _LS_REMOTE_TIMEOUT_SECONDS) -> str:
    try:
        return str(Git().execute(command, env=_GIT_ENV, kill_after_timeout=timeout))
    except GitCommandError as exc:
        stderr = _redact(str(exc.stderr or ""))
        logger.info("git %s failed for %s: %s", command[1], repo_url, stderr.strip())
        if _NETWORK_FAILURES.search(stderr):
            raise TransientError(
                ErrorCode.FETCH_FAILED, "GitHub could not be reached; will retry."
            ) from None
        if _DISK_FULL.search(stderr):  # an admin's problem, not the link's
            raise disk_full_error(
                "the repository could not be fetched. Free some space, then re-index"
            ) from None
        raise DomainError(
            ErrorCode.REPO_NOT_FOUND,
            "The repository was not found, or it is private. Check the link.",
        ) from None  # `from None`: the git command line may contain a token


def _redact(text: str) -> str:
    return re.sub(r"(\w+://)[^/@\s]+@", r"\1***@", text)


# --- files --------------------------------------------------------------------------------------


def _documents(
    remote: _Remote, request: LoadRequest, result: LoadResult, on_progress: ProgressCallback
) -> Iterator[Document]:
    # The clone lives only while the documents are read; the context manager removes it even
    # when the reader stops early (generator close) or fails.
    with tempfile.TemporaryDirectory(prefix="openguru-repo-") as workdir:
        clone = Path(workdir) / "repo"
        _clone(remote, clone)
        repo = Repo(clone)
        try:
            yield from _read_files(remote, request, result, on_progress, repo)
        finally:
            repo.close()  # its persistent `git cat-file` processes


def _read_files(
    remote: _Remote,
    request: LoadRequest,
    result: LoadResult,
    on_progress: ProgressCallback,
    repo: Repo,
) -> Iterator[Document]:
    commit = repo.head.commit.hexsha
    result.fetch_state[REPO_STATE_KEY] = {"commit": commit, "branch": remote.branch}
    progress = LoadProgress()
    for path, blob in _source_files(repo):
        progress.discovered += 1
        document = _file_document(remote, request, repo, path, blob)
        if document is None:
            continue
        identity = _blob_link(remote, path)
        digest = hashlib.sha256(document.text.encode()).hexdigest()
        result.fetch_state[identity] = {"hash": digest}
        previous = request.fetch_state.get(identity, {})
        if not request.private and previous.get("hash") == digest:
            progress.skipped_unchanged += 1
            result.unchanged_links.add(document.link)
        else:
            progress.fetched += 1
            yield document
        on_progress(progress)
    on_progress(progress)


def _clone(remote: _Remote, clone: Path) -> None:
    # No working tree, and no blob over the size limit: files are read from the object store,
    # so a repository's gigabyte-sized files are neither downloaded nor written to disk (a
    # server that does not filter sends them anyway, but they are still never checked out).
    limit = settings.GITHUB_MAX_FILE_BYTES + 1  # the filter omits blobs of at least this size
    command = ["git", "clone", "--depth=1", "--single-branch", "--no-tags", "--no-checkout"]
    command.append(f"--filter=blob:limit={limit}")
    if remote.branch != remote.commit:
        command.append(f"--branch={remote.branch}")
    command += ["--", remote.clone_url, str(clone)]
    _git(command, remote.repo_url, timeout=_CLONE_TIMEOUT_SECONDS)


def _source_files(repo: Repo) -> Iterator[tuple[str, str]]:
    """(path, blob id) of the indexable files, sorted (deterministic output). Only regular
    files count: a symlink may point outside the repository (/etc/passwd) or at itself, and a
    submodule is another repository."""
    extensions = {extension.lower() for extension in settings.GITHUB_CODE_EXTENSIONS}
    missing = _filtered_out(repo)
    listing = repo.git.ls_tree("-r", "-z", "--full-tree", "HEAD")
    for entry in sorted(filter(None, listing.split("\0")), key=lambda e: e.split("\t", 1)[1]):
        info, path = entry.split("\t", 1)
        mode, _kind, blob = info.split()
        *directories, name = path.split("/")
        if mode not in _FILE_MODES or blob in missing or SKIPPED_DIRS.intersection(directories):
            continue
        if _wanted(name, extensions):
            yield path, blob


def _filtered_out(repo: Repo) -> set[str]:
    """Blobs the clone filter left on the server: asking for them would download them."""
    listing = repo.git.rev_list("--objects", "--missing=print", "HEAD")
    return {line[1:] for line in listing.splitlines() if line.startswith("?")}


def _wanted(name: str, extensions: set[str]) -> bool:
    if name in SKIPPED_NAMES or name.endswith(_SKIPPED_SUFFIXES):
        return False
    if name in MANIFEST_NAMES or re.fullmatch(r"requirements.*\.(txt|in)", name):
        return True
    return PurePosixPath(name).suffix.lower() in extensions


def _file_document(
    remote: _Remote, request: LoadRequest, repo: Repo, path: str, blob: str
) -> Document | None:
    binsha = bytes.fromhex(blob)
    if repo.odb.info(binsha).size > settings.GITHUB_MAX_FILE_BYTES:
        return None  # the server did not filter
    raw = repo.odb.stream(binsha).read()
    if b"\x00" in raw[:_BINARY_SNIFF_BYTES] or not raw.strip():
        return None
    suffix = PurePosixPath(path).suffix.lower()
    return Document(
        title=f"{remote.repo_name}: {path}",
        link="" if request.private else _blob_link(remote, path),
        text=raw.decode("utf-8", errors="replace"),
        format=_format(suffix),
        metadata={
            "path": path,
            "language": _language(path),
            "branch": remote.branch,
            "repo_url": remote.repo_url,
        },
    )


def _blob_link(remote: _Remote, path: str) -> str:
    return f"{remote.repo_url}/blob/{quote(remote.branch)}/{quote(path)}"


def _format(suffix: str) -> Format:
    return "markdown" if suffix in _MARKDOWN_EXTENSIONS else "code"


def _language(path: str) -> str:
    name = PurePosixPath(path).name
    if name == "Dockerfile":
        return "dockerfile"
    if name == "Makefile":
        return "make"
    return LANGUAGES.get(PurePosixPath(path).suffix.lower(), "text")


def _typed_state(state: Mapping[str, Mapping[str, str]]) -> dict[str, dict[str, str]]:
    return {key: dict(value) for key, value in state.items()}

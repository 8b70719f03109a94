"""The real site the ingest section indexes: the Python 3.11 HTML docs from Debian's
`python3.11-doc` package, fetched with apt into the benchmark's download cache and extracted once.
"""

import shutil
import subprocess
from collections.abc import Callable
from pathlib import Path

PACKAGE = "python3.11-doc"
HTML_IN_PACKAGE = Path("usr/share/doc/python3.11/html")


def python_docs_root(
    *, downloads: Path, extract_to: Path, log: Callable[[str], None], deb: Path | None = None
) -> Path:
    """The extracted HTML root (`.../html` with `index.html`), downloading the package first if
    neither `deb` nor an earlier download is at hand."""
    html = extract_to / HTML_IN_PACKAGE
    if (html / "index.html").is_file():
        return html
    package = deb or _cached_deb(downloads) or _download(downloads, log)
    log(f"extracting {package.name}")
    staging = extract_to.with_name(extract_to.name + ".partial")
    shutil.rmtree(staging, ignore_errors=True)
    subprocess.run(["dpkg", "-x", str(package), str(staging)], check=True)
    shutil.rmtree(extract_to, ignore_errors=True)
    staging.rename(extract_to)  # a Ctrl-C mid-extraction never leaves a half tree in place
    if not (html / "index.html").is_file():
        raise RuntimeError(f"{package} has no {HTML_IN_PACKAGE}/index.html")
    return html


def _cached_deb(downloads: Path) -> Path | None:
    found = sorted(downloads.glob(f"{PACKAGE}_*.deb"))
    return found[-1] if found else None


def _download(downloads: Path, log: Callable[[str], None]) -> Path:
    downloads.mkdir(parents=True, exist_ok=True)
    log(f"apt-get download {PACKAGE} into {downloads}")
    subprocess.run(["apt-get", "download", PACKAGE], cwd=downloads, check=True)
    deb = _cached_deb(downloads)
    if deb is None:
        raise RuntimeError(f"apt-get download {PACKAGE} left no .deb in {downloads}")
    return deb

"""`reports/bench.json`: the keys other tools read, plus notes and the settings used. Sections
not run in this invocation are null: numbers from different runs are never mixed."""

import json
import os
import platform
import subprocess
from datetime import UTC, datetime
from importlib import metadata
from pathlib import Path
from typing import Any

from benchmarks.paths import REPO_DIR

REPORT_KEYS = (
    "ingest",
    "connectors",
    "search",
    "search_recall",
    "capacity",
    "ttft",
    "concurrency",
    "cached_answer_rps",
    "api",
    "widget",
    "ui",
    "slack",
    "overload",
    "scaleout",
    "refusal",
    "volume",
)


def git_commit(repo: Path = REPO_DIR) -> tuple[str, bool]:
    """(HEAD's hash, whether the work tree has uncommitted changes); ("unknown", False) outside
    a git checkout."""
    try:
        head = subprocess.run(
            ["git", "rev-parse", "HEAD"], cwd=repo, capture_output=True, text=True, check=True
        ).stdout.strip()
        status = subprocess.run(
            ["git", "status", "--porcelain"], cwd=repo, capture_output=True, text=True, check=True
        ).stdout
    except (OSError, subprocess.CalledProcessError):
        return "unknown", False
    return head, bool(status.strip())


def _version(package: str) -> str | None:
    try:
        return metadata.version(package)
    except metadata.PackageNotFoundError:
        return None


def machine() -> dict[str, Any]:
    return {
        "cpus": os.cpu_count(),
        "load_average_1_5_15": [round(x, 2) for x in os.getloadavg()],
        "python": platform.python_version(),
        "platform": platform.platform(),
        "milvus_lite": _version("milvus-lite"),
        "pymilvus": _version("pymilvus"),
        "torch": _version("torch"),
        "sentence_transformers": _version("sentence-transformers"),
    }


def build_report(
    results: dict[str, Any], *, settings: dict[str, Any], notes: dict[str, Any], seconds: float
) -> dict[str, Any]:
    commit, dirty = git_commit()
    report: dict[str, Any] = {"commit": commit}
    report |= {key: results.get(key) for key in REPORT_KEYS}
    report |= {
        "worktree_dirty": dirty,
        "finished_at": datetime.now(UTC).isoformat(timespec="seconds"),
        "duration_s": round(seconds, 1),
        "machine": machine(),
        "settings": settings,
        "notes": notes,
    }
    return report


def write_report(path: Path, report: dict[str, Any]) -> None:
    path.parent.mkdir(parents=True, exist_ok=True)
    partial = path.with_suffix(".json.partial")
    partial.write_text(json.dumps(report, indent=2) + "\n")
    partial.replace(path)

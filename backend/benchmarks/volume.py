"""The volume section: the relational reads at scale. A child process (`volume_worker`) fills a
scratch PostgreSQL database with `generate_volume`'s rows (1,000 gurus, ten million questions
over a year by default) and times what the site and the console read from it: a guru's page
(newest and most upvoted answers, its sources), an answer's page, the sitemap index and a page
of it, and a guru's analytics for 7 days, 30 days and 12 months, for the guru with the most
questions and for the median one. Then two fresh processes export that big guru's 12 months as
CSV, streamed through the API view and, for comparison, built whole in memory: their peak
resident memory (Django's own included)."""

import json
import os
import sys
from dataclasses import dataclass
from typing import Any

import environ

from benchmarks.paths import BACKEND_DIR, BenchPaths
from benchmarks.processes import ChildProcesses

WORKER_TIMEOUT_S = 6 * 3600.0


@dataclass(frozen=True)
class VolumePlan:
    gurus: int = 1000
    questions: int = 10_000_000
    days: int = 365
    repeat: int = 30  # timed reads of each kind
    reuse: bool = False  # measure the scratch database an earlier run filled


QUICK_VOLUME = VolumePlan(gurus=50, questions=20_000, repeat=10)


def scratch_database_url(bench_url: str) -> str:
    """The bench's PostgreSQL database with `_volume` appended to its name, else a database of
    that name on the local server as `services_up.sh` starts it."""
    if bench_url.startswith("postgres"):
        config = environ.Env.db_url_config(bench_url)
        name = str(config["NAME"])
        return bench_url[: bench_url.rindex(name)] + f"{name}_volume"
    return "postgres://postgres@127.0.0.1:5432/openguru_bench_volume"


def _worker(
    mode: str,
    argv: list[str],
    *,
    database_url: str,
    paths: BenchPaths,
    processes: ChildProcesses,
) -> dict[str, Any]:
    result = paths.root / "volume" / f"{mode}.json"
    result.parent.mkdir(parents=True, exist_ok=True)
    result.unlink(missing_ok=True)
    env = {**os.environ, "PYTHONUNBUFFERED": "1", "DATABASE_URL": database_url}
    process = processes.start(
        f"volume {mode}",
        [sys.executable, "-m", "benchmarks.volume_worker", mode, "--result", str(result), *argv],
        cwd=BACKEND_DIR,
        env=env,
        log_file=paths.logs / "volume_worker.log",
    )
    try:
        code = process.wait(timeout=WORKER_TIMEOUT_S)
    finally:
        processes.stop(process)
    if code != 0 or not result.exists():
        raise RuntimeError(f"the volume {mode} worker exited with {code}: see volume_worker.log")
    measured: dict[str, Any] = json.loads(result.read_text())
    return measured


def run_volume(
    *,
    plan: VolumePlan,
    database_url: str,
    paths: BenchPaths,
    processes: ChildProcesses,
    log: Any,
) -> dict[str, Any]:
    url = scratch_database_url(database_url)
    log(f"volume: {plan.questions} questions of {plan.gurus} gurus into {url.rsplit('/', 1)[-1]}")
    sizes = ["--gurus", str(plan.gurus), "--questions", str(plan.questions)]
    sizes += ["--days", str(plan.days), "--repeat", str(plan.repeat)]
    sizes += ["--reuse"] if plan.reuse else []
    result = _worker("reads", sizes, database_url=url, paths=paths, processes=processes)
    big = result["big_guru"]["slug"]
    made = "reused" if plan.reuse else f"generated in {result['generate_s']}s"
    log(f"volume: reads timed ({made}); exporting {big}'s 12 months")
    export = ["--guru", big, "--interval", "12m"]
    result["export_csv_12m"] = _worker(
        "export", export, database_url=url, paths=paths, processes=processes
    )
    result["export_csv_12m_in_memory"] = _worker(
        "export", [*export, "--in-memory"], database_url=url, paths=paths, processes=processes
    )
    return result

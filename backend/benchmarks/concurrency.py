"""Section 4 — many answers streaming at once against the same server: every stream starts
together, each bounded by the level's total timeout; TTFT percentiles, errors (non-200, `error`
events, timeouts, broken streams) and the peak resident memory of the server's process tree."""

import asyncio
import time
from collections import Counter
from collections.abc import Callable
from typing import Any

import httpx

from benchmarks.api_server import ApiServer
from benchmarks.processes import PeakRss, tree_cpu_seconds
from benchmarks.sse import AskOutcome, ask_stream
from benchmarks.stats import p50_p95
from benchmarks.ttft import answered_ttfts, outcome_counts


async def ask_all_at_once(
    url: str, questions: list[str], *, mode: str, timeout: float
) -> list[AskOutcome]:
    limits = httpx.Limits(max_connections=None, max_keepalive_connections=None)
    async with httpx.AsyncClient(limits=limits, timeout=timeout) as client:
        asks = [ask_stream(client, url, q, mode=mode, timeout=timeout) for q in questions]
        return list(await asyncio.gather(*asks))


def run_level(
    *, api: ApiServer, slug: str, questions: list[str], mode: str, timeout: float
) -> dict[str, Any]:
    started, cpu_before = time.perf_counter(), tree_cpu_seconds(api.pid)
    with PeakRss(api.pid) as memory:
        outcomes = asyncio.run(
            ask_all_at_once(api.stream_url(slug), questions, mode=mode, timeout=timeout)
        )
    cpu = tree_cpu_seconds(api.pid) - cpu_before
    p50, p95 = p50_p95(answered_ttfts(outcomes))
    counts = outcome_counts(outcomes)
    return {
        "streams": len(questions),
        "mode": mode,
        "p50_ttft_ms": p50,
        "p95_ttft_ms": p95,
        "errors": counts.pop("errors"),
        "peak_rss_mb": round(memory.peak_mb, 1),
        **counts,
        "error_kinds": dict(Counter(o.error for o in outcomes if o.error)),
        "wall_s": round(time.perf_counter() - started, 1),
        # CPU the server's processes used per stream: on 2 cores, what bounds throughput.
        "server_cpu_ms_per_stream": round(cpu / len(questions) * 1000, 1),
        "timeout_s": timeout,
    }


def run_concurrency(
    *,
    api: ApiServer,
    slug: str,
    levels: tuple[int, ...],
    modes: tuple[str, ...],
    take: Callable[[int], list[str]],
    timeout: float,
    log: Callable[[str], None],
) -> list[dict[str, Any]]:
    rows = []
    for mode in modes:
        for streams in levels:
            log(f"concurrency: {streams} simultaneous {mode} streams")
            row = run_level(api=api, slug=slug, questions=take(streams), mode=mode, timeout=timeout)
            log(
                f"concurrency: p50 TTFT {row['p50_ttft_ms']} ms, p95 {row['p95_ttft_ms']} ms, "
                f"{row['errors']} errors, peak RSS {row['peak_rss_mb']} MB, {row['wall_s']}s"
            )
            rows.append(row)
    return rows

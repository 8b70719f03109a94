"""Section 5 — requests/s of the JSON answer endpoint for a question it has already answered
(a cache hit: no retrieval, no LLM), with a fixed number of requests at bounded concurrency."""

import asyncio
import time
from collections import Counter
from collections.abc import Callable, Mapping
from typing import Any

import httpx

from benchmarks.processes import tree_cpu_seconds
from benchmarks.stats import p50_p95, per_second

CacheCheck = Callable[[httpx.Response], bool]


def says_cached(response: httpx.Response) -> bool:
    """The internal endpoint marks an answer served from the cache."""
    return bool(response.json().get("cached"))


async def _ask(
    client: httpx.AsyncClient, url: str, question: str, gate: asyncio.Semaphore, hit: CacheCheck
) -> tuple[float, str]:
    """(latency ms, "" | "not cached" | an error)."""
    async with gate:
        started = time.perf_counter()
        try:
            response = await client.post(url, json={"question": question})
        except httpx.HTTPError as exc:
            return (time.perf_counter() - started) * 1000, type(exc).__name__
        elapsed = (time.perf_counter() - started) * 1000
        if response.status_code != 200:
            return elapsed, f"http {response.status_code}"
        return elapsed, "" if hit(response) else "not cached"


async def _hammer(
    url: str,
    question: str,
    requests: int,
    concurrency: int,
    headers: Mapping[str, str],
    hit: CacheCheck,
) -> list[tuple[float, str]]:
    gate = asyncio.Semaphore(concurrency)
    limits = httpx.Limits(max_connections=concurrency, max_keepalive_connections=concurrency)
    async with httpx.AsyncClient(limits=limits, timeout=60, headers=headers) as client:
        return list(
            await asyncio.gather(*(_ask(client, url, question, gate, hit) for _ in range(requests)))
        )


def run_cached(
    *,
    url: str,
    server_pid: int,
    question: str,
    requests: int,
    concurrency: int,
    headers: Mapping[str, str] | None = None,
    hit: CacheCheck = says_cached,
) -> dict[str, Any]:
    """`question` must already be answered. Only cache hits count towards the rate."""
    started, cpu_before = time.perf_counter(), tree_cpu_seconds(server_pid)
    results = asyncio.run(_hammer(url, question, requests, concurrency, headers or {}, hit))
    seconds = time.perf_counter() - started
    cpu = tree_cpu_seconds(server_pid) - cpu_before
    hits = [ms for ms, problem in results if not problem]
    p50, p95 = p50_p95(hits)
    problems = [problem for _, problem in results if problem]
    return {
        "cached_answer_rps": per_second(len(hits), seconds, digits=1),
        "requests": requests,
        "concurrency": concurrency,
        "hits": len(hits),
        "not_cached": problems.count("not cached"),
        "errors": len(problems) - problems.count("not cached"),
        "error_kinds": dict(Counter(p for p in problems if p != "not cached")),
        "p50_ms": p50,
        "p95_ms": p95,
        "wall_s": round(seconds, 2),
        "server_cpu_ms_per_request": round(cpu / requests * 1000, 1),
    }

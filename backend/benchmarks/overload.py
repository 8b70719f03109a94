"""Section — overload: answers arriving at a fixed mean rate (Poisson arrivals; open loop, so a
slow server does not slow the arrivals down as it would a fixed set of clients), at rising rates,
against a server of its own with load shedding as configured (`ANSWER_MAX_IN_FLIGHT`...).

Per rate: p50/p95 TTFT of the answers, the p95 overhead over the LLM floor (TTFT minus what the
fake LLM itself takes to its first token), how many asks were shed (503 `overloaded`) or failed,
and the server's CPU per answer. `sustainable_rate_per_s` is the highest rate whose p95
overhead stayed under the budget with nothing shed or failed; the rates above it show what
shedding does. The answer cache is off for the section, so its questions may repeat."""

import asyncio
import random
from collections import Counter
from collections.abc import Callable, Iterator, Sequence
from contextlib import contextmanager
from pathlib import Path
from typing import Any

import httpx
from openguru.core.models import PlatformSettings
from openguru.gurus.models import Guru

from benchmarks.api_server import ApiServer, start_gunicorn, warm_every_worker
from benchmarks.collection import evenly_spaced
from benchmarks.config import OverloadPlan
from benchmarks.processes import ChildProcesses, tree_cpu_seconds
from benchmarks.profiling import profiled_if
from benchmarks.sse import AskOutcome, ask_stream
from benchmarks.stats import p50_p95, rounded
from benchmarks.ttft import FLOOR_SAMPLES, answered_ttfts, ask_one_by_one, llm_floor

OVERHEAD_BUDGET_MS = 250.0
SHED_STATUSES = (503, 429)
MODE = "default"  # what a channel gets unless it asks for fast


def arrival_times(rate: float, seconds: float, rng: random.Random) -> list[float]:
    """Poisson arrivals: exponential gaps of mean 1/rate, within [0, seconds)."""
    times, at = [], rng.expovariate(rate)
    while at < seconds:
        times.append(at)
        at += rng.expovariate(rate)
    return times


async def open_loop(
    url: str, questions: Sequence[str], times: Sequence[float], *, timeout: float
) -> list[AskOutcome]:
    """Start one ask at each time (seconds from now), whatever the earlier ones are doing."""
    loop = asyncio.get_running_loop()
    limits = httpx.Limits(max_connections=None, max_keepalive_connections=None)
    async with httpx.AsyncClient(limits=limits, timeout=timeout) as client:
        start, asks = loop.time(), []
        for index, at in enumerate(times):
            await asyncio.sleep(max(0.0, start + at - loop.time()))
            question = questions[index % len(questions)]
            asks.append(
                asyncio.create_task(ask_stream(client, url, question, mode=MODE, timeout=timeout))
            )
        return list(await asyncio.gather(*asks))


def level_row(
    rate: float, outcomes: list[AskOutcome], *, floor_ms: float, cpu_s: float, seconds: float
) -> dict[str, Any]:
    shed = [o for o in outcomes if o.status in SHED_STATUSES]
    failed = [o for o in outcomes if o.error and o.status not in SHED_STATUSES]
    answered = answered_ttfts(outcomes)
    p50, p95 = p50_p95(answered)
    overhead = rounded(p95 - floor_ms) if p95 is not None else None
    return {
        "rate_per_s": rate,
        "asked": len(outcomes),
        "offered_per_s": round(len(outcomes) / seconds, 2),
        "answered": len(answered),
        "shed": len(shed),
        "errors": len(failed),
        "error_kinds": dict(Counter(o.error for o in failed)),
        "p50_ttft_ms": p50,
        "p95_ttft_ms": p95,
        "p95_overhead_ms": overhead,
        "within_budget": overhead is not None and overhead < OVERHEAD_BUDGET_MS
        and not shed and not failed,
        "server_cpu_ms_per_answer": round(cpu_s * 1000 / max(len(answered), 1), 1),
    }  # fmt: skip


def sustainable_rate(rows: list[dict[str, Any]]) -> float | None:
    """The highest rate within budget below the first one that was not."""
    best = None
    for row in rows:
        if not row["within_budget"]:
            break
        best = row["rate_per_s"]
    return best


def run_overload(
    *,
    api: ApiServer,
    slug: str,
    questions: Sequence[str],
    floor_ms: float,
    plan: OverloadPlan,
    timeout: float,
    log: Callable[[str], None],
) -> dict[str, Any]:
    rng, rows, shedding = random.Random(plan.seed), [], 0
    for rate in plan.rates:
        times = arrival_times(rate, plan.seconds, rng)
        log(f"overload: {len(times)} asks over {plan.seconds:g}s at {rate:g}/s")
        cpu_before = tree_cpu_seconds(api.pid)
        outcomes = asyncio.run(open_loop(api.stream_url(slug), questions, times, timeout=timeout))
        cpu = tree_cpu_seconds(api.pid) - cpu_before
        rows.append(level_row(rate, outcomes, floor_ms=floor_ms, cpu_s=cpu, seconds=plan.seconds))
        row = rows[-1]
        log(
            f"overload: {rate:g}/s p95 TTFT {row['p95_ttft_ms']} ms (overhead "
            f"{row['p95_overhead_ms']} ms), {row['shed']} shed, {row['errors']} errors, "
            f"{row['server_cpu_ms_per_answer']} CPU ms/answer"
        )
        shedding = shedding + 1 if row["shed"] else 0
        if shedding >= plan.shed_levels:
            break
    return {
        "sustainable_rate_per_s": sustainable_rate(rows),
        "overhead_budget_ms": OVERHEAD_BUDGET_MS,
        "llm_floor_ms": floor_ms,
        "mode": MODE,
        "seconds_per_rate": plan.seconds,
        "levels": rows,
    }


def overload_section(
    *,
    api: ApiServer,
    guru: Guru,
    questions: Sequence[str],
    contexts: list[str],
    plan: OverloadPlan,
    timeout: float,
    processes: ChildProcesses,
    logs: Path,
    log: Callable[[str], None],
    profile_svg: Path | None = None,
) -> dict[str, Any]:
    """On a gunicorn of its own (the other sections' server sheds nothing), asking the same fake
    LLM, with the answer cache off: `questions` (answered before) are asked again and again."""
    log("overload: timing the fake LLM's own calls (the floor)")
    floor = asyncio.run(
        llm_floor(api, guru, evenly_spaced(list(questions), FLOOR_SAMPLES), contexts)
    )
    with answer_cache_off():
        result = overload_on_own_server(
            api,
            slug=guru.slug,
            workers=api.workers,
            questions=questions,
            floor_ms=floor[f"{MODE}_floor_ms"],
            plan=plan,
            timeout=timeout,
            processes=processes,
            logs=logs,
            log=log,
            profile_svg=profile_svg,
        )
    return result | {"questions": len(questions), "gunicorn_workers": api.workers}


def overload_on_own_server(
    api: ApiServer,
    *,
    slug: str,
    workers: int,
    questions: Sequence[str],
    floor_ms: float,
    plan: OverloadPlan,
    timeout: float,
    processes: ChildProcesses,
    logs: Path,
    log: Callable[[str], None],
    profile_svg: Path | None = None,
) -> dict[str, Any]:
    """`run_overload` against a gunicorn of `workers` started for it (asking `api`'s fake LLM),
    stopped afterwards."""
    server = start_gunicorn(
        processes,
        llm_base_url=api.llm_base_url,
        latency=api.latency,
        workers=workers,
        logs=logs,
        name=f"gunicorn-overload-{workers}",
    )
    try:
        warm_every_worker(server)
        # Each question once per worker before timing: a fresh server's first answers open its
        # connections and read what it keeps in memory.
        url = server.stream_url(slug)
        asyncio.run(ask_one_by_one(url, list(questions) * workers, mode=MODE, timeout=timeout))
        with profiled_if(server.pid, profile_svg) as profile:
            result = run_overload(
                api=server,
                slug=slug,
                questions=questions,
                floor_ms=floor_ms,
                plan=plan,
                timeout=timeout,
                log=log,
            )
        if profile is not None:
            result["profile"] = profile.summary()
        return result
    finally:
        processes.stop_pid(server.pid)


@contextmanager
def answer_cache_off() -> Iterator[None]:
    """Questions asked again must reach the engine, not the answer cache."""
    platform = PlatformSettings.objects.get_or_create(pk=1)[0]
    cache_was = platform.answer_cache_enabled
    PlatformSettings.objects.filter(pk=1).update(answer_cache_enabled=False)
    try:
        yield
    finally:
        PlatformSettings.objects.filter(pk=1).update(answer_cache_enabled=cache_was)

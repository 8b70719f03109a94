"""Section 3 — time to first token through the HTTP API, one question at a time, per answer mode,
with the fake LLM answering every call after a fixed delay. The issue's targets are reported as
ratios of p50 to the LLM call time, never asserted."""

import asyncio
import time
from collections.abc import Callable
from typing import Any

import httpx
from openguru.answers.engine.ask import RELEVANCE_TOP
from openguru.answers.engine.prompts import (
    RELEVANCE_SCHEMA,
    UNDERSTAND_SCHEMA,
    answer_messages,
    relevance_messages,
    understand_messages,
)
from openguru.gurus.models import Guru
from openguru.providers.llm.openai_compatible import OpenAICompatibleLLM

from benchmarks.api_server import FAKE_MODEL, ApiServer
from benchmarks.collection import evenly_spaced
from benchmarks.processes import tree_cpu_seconds
from benchmarks.sse import AskOutcome, ask_stream
from benchmarks.stats import p50_p95, percentile, ratio, rounded
from benchmarks.traces import saved_questions, trace_summary

MODES = ("fast", "default")
TARGET_RATIO = {"fast": 1.15, "default": 2.3}  # p50 TTFT / LLM call time, from the issue
FLOOR_SAMPLES = 10


def outcome_counts(outcomes: list[AskOutcome]) -> dict[str, int]:
    return {
        "questions": len(outcomes),
        "answered": sum(o.answered for o in outcomes),
        "refused": sum(o.refused and not o.error for o in outcomes),
        "cached": sum(o.cached and not o.error for o in outcomes),
        "errors": sum(bool(o.error) for o in outcomes),
    }


def answered_ttfts(outcomes: list[AskOutcome]) -> list[float]:
    return [o.ttft_ms for o in outcomes if o.answered and o.ttft_ms is not None]


async def ask_one_by_one(
    url: str, questions: list[str], *, mode: str, timeout: float
) -> list[AskOutcome]:
    async with httpx.AsyncClient(timeout=timeout) as client:
        return [await ask_stream(client, url, q, mode=mode, timeout=timeout) for q in questions]


def run_ttft(
    *,
    api: ApiServer,
    guru: Guru,
    questions: dict[str, list[str]],
    timeout: float,
    contexts: list[str],
    log: Callable[[str], None],
) -> tuple[list[dict[str, Any]], dict[str, Any], list[AskOutcome]]:
    """Rows for the report, the LLM floor (what the fake LLM alone costs), and the outcomes."""
    log("ttft: timing the fake LLM's own calls (the floor)")
    # Spread over the measured questions: a longer question makes a longer understanding JSON.
    sample = evenly_spaced(questions["default"], FLOOR_SAMPLES)
    floor = asyncio.run(llm_floor(api, guru, sample, contexts))
    rows, everything = [], []
    for mode in MODES:
        log(f"ttft: {len(questions[mode])} sequential {mode} answers")
        url = api.stream_url(guru.slug)
        cpu_before = tree_cpu_seconds(api.pid)
        outcomes = asyncio.run(ask_one_by_one(url, questions[mode], mode=mode, timeout=timeout))
        cpu_ms = (tree_cpu_seconds(api.pid) - cpu_before) * 1000 / max(len(outcomes), 1)
        everything += outcomes
        rows.append(_row(mode, outcomes, guru, call_ms=api.latency.call_ms, floor=floor))
        rows[-1]["server_cpu_ms_per_answer"] = round(cpu_ms, 1)
        log(
            f"ttft: {mode} p50 {rows[-1]['p50_ms']} ms (x{rows[-1]['p50_ratio']} of the call, "
            f"floor {rows[-1]['llm_floor_ms']} ms), p95 {rows[-1]['p95_ms']} ms"
        )
    return rows, floor, everything


def _row(
    mode: str, outcomes: list[AskOutcome], guru: Guru, *, call_ms: float, floor: dict[str, Any]
) -> dict[str, Any]:
    p50, p95 = p50_p95(answered_ttfts(outcomes))
    floor_ms = floor[f"{mode}_floor_ms"]
    row: dict[str, Any] = {"mode": mode, "llm_call_ms": call_ms, "p50_ms": p50, "p95_ms": p95}
    row |= trace_summary(saved_questions(guru, [o.slug for o in outcomes if o.answered]))
    row |= {"p50_ratio": ratio(p50, call_ms), "target_ratio": TARGET_RATIO[mode]}
    row |= {
        "llm_floor_ms": floor_ms,
        "overhead_p50_ms": rounded(p50 - floor_ms) if p50 is not None and floor_ms else None,
        "p50_over_floor": ratio(p50, floor_ms),
    }
    return row | outcome_counts(outcomes)


async def llm_floor(
    api: ApiServer, guru: Guru, questions: list[str], contexts: list[str]
) -> dict[str, Any]:
    """The same calls the engine makes, straight to the fake LLM: what TTFT would be with zero
    platform overhead. The engine starts question understanding alongside retrieval and never
    waits for it, so the critical path is: fast = the answer call; default = the relevance call,
    then the answer call. The understanding call is timed too, for reference."""
    llm = OpenAICompatibleLLM(
        api_key="x", base_url=api.llm_base_url, model=FAKE_MODEL, timeout=60, max_retries=0
    )
    understand, relevance, first_token = [], [], []
    for question in questions:
        understand.append(
            await _timed_json(
                llm,
                understand_messages(guru=guru, question=question, history=[]),
                UNDERSTAND_SCHEMA,
                "understanding",
            )
        )
        relevance.append(
            await _timed_json(
                llm,
                relevance_messages(question=question, contexts=contexts[:RELEVANCE_TOP]),
                RELEVANCE_SCHEMA,
                "relevance",
            )
        )
        first_token.append(
            await _first_token_ms(llm, answer_messages(guru=guru, question=question, contexts=[]))
        )
    medians = {
        "understanding_call_ms": percentile(understand, 50),
        "relevance_call_ms": percentile(relevance, 50),
        "answer_first_token_ms": percentile(first_token, 50),
    }
    default = medians["relevance_call_ms"] + medians["answer_first_token_ms"]
    return {
        **{k: rounded(v) for k, v in medians.items()},
        "fast_floor_ms": rounded(medians["answer_first_token_ms"]),
        "default_floor_ms": rounded(default),
        "samples": len(questions),
        "latency_profile": api.latency.profile,
        "note": f"{_PROFILE_NOTES[api.latency.profile]}; floors assume understanding is off "
        "the critical path (the engine never waits for it)",
    }


_PROFILE_NOTES = {
    "fixed_call": "every fake LLM call takes call_ms to its first answer token (a stream's "
    "first token, a structured-output answer whole), then token_ms between streamed tokens",
    "paced": "the fake LLM waits call_ms, then token_ms per token, also before a stream's first "
    "token and for the tokens of a non-streamed structured-output call",
}


async def _timed_json(llm: OpenAICompatibleLLM, messages: Any, schema: Any, name: str) -> float:
    started = time.perf_counter()
    await llm.complete_json(messages, schema=schema, name=name)
    return (time.perf_counter() - started) * 1000


async def _first_token_ms(llm: OpenAICompatibleLLM, messages: Any) -> float:
    started = time.perf_counter()
    first: float | None = None
    async for chunk in llm.stream(messages):
        if chunk.delta and first is None:
            first = (time.perf_counter() - started) * 1000
    return first if first is not None else float("nan")

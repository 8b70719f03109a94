"""Section 6 — the public API v1 against the internal endpoints, in one run: cached answers per
second with key auth through /api/v1/<g>/answer/ as a ratio of the same through
/api/gurus/<g>/answer/, and time to first answer byte through the v1 raw-markdown stream next
to the first `delta` of the internal SSE stream. Rounds alternate so drift hits both alike."""

import asyncio
import time
from collections.abc import Callable
from typing import Any

import httpx
from openguru.answers.models import Question
from openguru.gurus.models import Guru
from openguru.integrations.apikeys.selectors import api_key_list
from openguru.integrations.apikeys.services import admin_token_owner, api_key_create, api_key_delete
from openguru.integrations.models import APIKey

from benchmarks.api_server import ApiServer
from benchmarks.cached import run_cached, says_cached
from benchmarks.sse import AskOutcome, ask_stream
from benchmarks.stats import p50_p95, ratio

ROUNDS = 3
BENCH_KEY_NAME = "bench"
TARGET_RPS_RATIO = 0.9  # the goal for v1 with key auth against the internal endpoint


def _status_ok(response: httpx.Response) -> bool:
    # v1's JSON has no cache flag: that every ask was a cache hit is checked on the table.
    return response.status_code == 200


def cached_rates(
    api: ApiServer, guru: Guru, question: str, *, key: str, requests: int, concurrency: int
) -> dict[str, Any]:
    saved_before = Question.objects.filter(guru=guru).count()
    rates: dict[str, list[float]] = {"internal": [], "v1": []}
    errors = {"internal": 0, "v1": 0}  # only answers count towards a rate
    for _ in range(ROUNDS):
        for name, url, headers in (
            ("internal", api.json_url(guru.slug), {}),
            ("v1", api.v1_answer_url(guru.slug), {"X-API-KEY": key}),
        ):
            measured = run_cached(
                url=url,
                server_pid=api.pid,
                question=question,
                requests=requests,
                concurrency=concurrency,
                headers=headers,
                hit=_status_ok if name == "v1" else says_cached,
            )
            if measured["not_cached"]:
                raise RuntimeError(f"{name}: not every ask was a cache hit: {measured}")
            rates[name].append(measured["cached_answer_rps"] or 0.0)
            errors[name] += measured["errors"]
    if Question.objects.filter(guru=guru).count() != saved_before:
        raise RuntimeError("an ask through v1 was answered anew, not from the cache")
    internal, v1 = sum(rates["internal"]), sum(rates["v1"])
    return {
        "internal_cached_rps": round(internal / ROUNDS, 1),
        "v1_cached_rps": round(v1 / ROUNDS, 1),
        "v1_over_internal": ratio(v1, internal),
        "target_ratio": TARGET_RPS_RATIO,
        "rounds": rates,
        "errors": errors,
    }


async def v1_first_byte(client: httpx.AsyncClient, url: str, question: str, key: str) -> AskOutcome:
    """Time to the first byte of the answer itself: past the `# <question>` title line."""
    outcome = AskOutcome(question=question)
    started = time.perf_counter()
    body = {"question": question, "stream": True}
    async with client.stream("POST", url, json=body, headers={"X-API-KEY": key}) as response:
        outcome.status = response.status_code
        received = ""
        async for text in response.aiter_text():
            received += text
            if outcome.ttft_ms is None and received.partition("\n\n")[2]:
                outcome.ttft_ms = (time.perf_counter() - started) * 1000
    outcome.total_ms = (time.perf_counter() - started) * 1000
    if response.status_code != 200:
        outcome.error = f"http {response.status_code}"
    elif outcome.ttft_ms is None:
        outcome.error = "no answer text"
    outcome.events = ["done"] if not outcome.error else []
    return outcome


async def _alternate(
    api: ApiServer, guru: Guru, questions: list[str], key: str, timeout: float
) -> dict[str, list[AskOutcome]]:
    outcomes: dict[str, list[AskOutcome]] = {"internal": [], "v1": []}
    async with httpx.AsyncClient(timeout=timeout) as client:
        for i, question in enumerate(questions):
            if i % 2:
                outcomes["v1"].append(
                    await v1_first_byte(client, api.v1_answer_url(guru.slug), question, key)
                )
            else:
                url = api.stream_url(guru.slug)
                outcomes["internal"].append(
                    await ask_stream(client, url, question, mode="default", timeout=timeout)
                )
    return outcomes


def stream_ttft(
    api: ApiServer, guru: Guru, questions: list[str], *, key: str, timeout: float
) -> dict[str, Any]:
    """Questions alternate between the two streams, one at a time, in the default mode."""
    outcomes = asyncio.run(_alternate(api, guru, questions, key, timeout))
    row: dict[str, Any] = {}
    for name, done in outcomes.items():
        ttfts = [o.ttft_ms for o in done if o.ttft_ms is not None and not o.error and not o.refused]
        p50, p95 = p50_p95(ttfts)
        row[name] = {"p50_ms": p50, "p95_ms": p95, "answered": len(ttfts), "asked": len(done)}
    row["v1_over_internal_p50"] = ratio(row["v1"]["p50_ms"], row["internal"]["p50_ms"])
    return row


def _fresh_key() -> tuple[APIKey, str]:
    """A personal key for this run; an earlier run's bench key is revoked (at most 5 each)."""
    owner = admin_token_owner()
    for old in api_key_list(user=owner).filter(name=BENCH_KEY_NAME):
        api_key_delete(user=owner, key_id=old.pk)
    return api_key_create(user=owner, name=BENCH_KEY_NAME)


def run_api(
    *,
    api: ApiServer,
    guru: Guru,
    cached_question: str,
    stream_questions: list[str],
    requests: int,
    concurrency: int,
    timeout: float,
    log: Callable[[str], None],
) -> dict[str, Any]:
    _, key = _fresh_key()
    log(f"api: {ROUNDS} alternating rounds of {requests} cached asks, internal then v1")
    cached = cached_rates(
        api, guru, cached_question, key=key, requests=requests, concurrency=concurrency
    )
    log(f"api: cached {cached}")
    log(f"api: {len(stream_questions)} questions alternating between the two streams")
    ttft = stream_ttft(api, guru, stream_questions, key=key, timeout=timeout)
    log(f"api: first answer byte {ttft}")
    return {"cached": cached, "stream_ttft": ttft}

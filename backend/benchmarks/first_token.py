"""What the browser sections (widget, ui) share: the API's own first token, asked between the
browser's questions, and the row that sets the two side by side."""

import asyncio
from typing import Any

import httpx
from openguru.gurus.models import Guru

from benchmarks.api_server import ApiServer
from benchmarks.sse import AskOutcome, ask_stream
from benchmarks.stats import p50_p95, ratio


def api_ask(api: ApiServer, guru: Guru, question: str, timeout: float) -> AskOutcome:
    async def one() -> AskOutcome:
        async with httpx.AsyncClient(timeout=timeout) as client:
            url = api.stream_url(guru.slug)
            return await ask_stream(client, url, question, mode="default", timeout=timeout)

    return asyncio.run(one())


def api_first_token(
    api: ApiServer,
    guru: Guru,
    question: str,
    timeout: float,
    *,
    outcomes: list[str],
    times_ms: list[float],
) -> None:
    """Ask through the internal SSE stream; its first `delta` time joins `times_ms`."""
    outcome = api_ask(api, guru, question, timeout)
    ok = outcome.answered and outcome.ttft_ms is not None
    outcomes.append("answered" if ok else outcome.error or "refused")
    if ok and outcome.ttft_ms is not None:
        times_ms.append(outcome.ttft_ms)


def first_token_row(
    name: str,
    *,
    browser_ms: list[float],
    api_ms: list[float],
    outcomes: dict[str, list[str]],
    chromium: str,
) -> dict[str, Any]:
    row: dict[str, Any] = {"chromium": chromium}
    for key, values in ((name, browser_ms), ("api_sse", api_ms)):
        p50, p95 = p50_p95(values)
        row[key] = {
            "p50_ms": p50,
            "p95_ms": p95,
            "answered": len(values),
            "asked": len(outcomes[key]),
        }
    row[f"{name}_over_api_p50"] = ratio(row[name]["p50_ms"], row["api_sse"]["p50_ms"])
    row["outcomes"] = outcomes
    return row

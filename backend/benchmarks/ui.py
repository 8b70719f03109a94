"""Section 8 — the Q&A site (Next.js) as production runs it: `next build`, then `next start`
against the bench API server. Measured: how long the build takes here, the server's response
time for a stored question page (sequential GETs of `/g/<guru>/<question>`: its first render,
then served from Next's cache, with a cookie (rendered per request), and the first GET after an
edit that Django's revalidation dropped from the cache), and in headless Chromium the time from
clicking Ask on the guru page to the first answer text on screen, as a ratio of the internal
SSE stream's first `delta` in the same run. Questions alternate between the two, one at a time,
so drift hits both alike. The site's /api
calls go through Next's rewrite to the API server (in production nginx sits there)."""

import json
import os
import shutil
import subprocess
import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import TYPE_CHECKING, Any

import httpx
from django.test import override_settings
from openguru.answers.models import Question
from openguru.answers.services import AnswerRecord, question_save
from openguru.gurus.models import Guru
from openguru.providers.vectorstore.lite_server import free_port

from benchmarks.api_server import ApiServer
from benchmarks.chromium import BrowserThread
from benchmarks.first_token import api_first_token, first_token_row
from benchmarks.paths import REPO_DIR
from benchmarks.processes import ChildProcesses, wait_until
from benchmarks.stats import p50_p95

if TYPE_CHECKING:
    from playwright.sync_api import Page

FRONTEND = REPO_DIR / "frontend"
UNTIMED_GETS = 3
REVALIDATE_SECRET = "bench-ui-revalidate"  # noqa: S105 (shared with this run's next start only)
BUILD_TIMEOUT_S = 900.0

# Clicks Ask and resolves with the milliseconds from the click to the first answer text in the
# DOM ("Thinking…" is not the answer), and to the end of the answer.
_MEASURE = """async ({timeout}) => {
  return await new Promise((resolve) => {
    let first = null;
    const start = performance.now();
    const finish = (outcome) => {
      observer.disconnect();
      resolve({first_ms: first, total_ms: performance.now() - start, outcome});
    };
    const observer = new MutationObserver(() => {
      const error = document.querySelector('[data-part=error]');
      if (error) return finish('error: ' + error.textContent.trim());
      if (document.querySelector('[data-part=refusal]')) return finish('refused');
      const answer = document.querySelector('[data-part=markdown]');
      if (first === null && answer && answer.textContent.trim()) {
        first = performance.now() - start;
      }
      if (document.querySelector('[data-part=trust]')) finish('answered');
    });
    observer.observe(document.body, {subtree: true, childList: true, characterData: true});
    setTimeout(() => finish('timeout'), timeout);
    document.querySelector('form button[type=submit]').click();
  });
}"""


def _next_env(api: ApiServer, dist_dir: str, origin: str) -> dict[str, str]:
    # Beside the build folder: `next build` adds its folder's types to the tsconfig it uses, and
    # the real one must stay as committed.
    tsconfig = FRONTEND / f"{dist_dir}.tsconfig.json"
    tsconfig.parent.mkdir(parents=True, exist_ok=True)
    tsconfig.write_text(json.dumps({"extends": "../tsconfig.json"}))
    return {
        **os.environ,
        "OPENGURU_API_URL": api.url,  # the /api rewrite's target is written into the build
        "NEXT_PUBLIC_API_URL": "",
        "SITE_URL": origin,
        "NEXT_TELEMETRY_DISABLED": "1",
        "NEXT_DIST_DIR": dist_dir,  # a build folder of its own: a developer's .next stays
        "NEXT_TSCONFIG_PATH": str(tsconfig.relative_to(FRONTEND)),
        "NODE_ENV": "production",
        "UI_REVALIDATE_SECRET": REVALIDATE_SECRET,
    }


@contextmanager
def production_site(
    api: ApiServer, processes: ChildProcesses, logs: Path, log: Callable[[str], None]
) -> Iterator[tuple[str, float]]:
    """Builds the site and serves it with `next start`; yields its origin and the build time."""
    port = free_port()
    origin = f"http://127.0.0.1:{port}"
    dist_dir = f".next/bench-ui-{port}"
    env = _next_env(api, dist_dir, origin)
    next_bin = str(FRONTEND / "node_modules/.bin/next")
    logs.mkdir(parents=True, exist_ok=True)
    try:
        started = time.perf_counter()
        with (logs / "next-build.log").open("wb") as build_log:
            subprocess.run(
                [next_bin, "build"],
                cwd=FRONTEND,
                env=env,
                stdout=build_log,
                stderr=subprocess.STDOUT,
                timeout=BUILD_TIMEOUT_S,
                check=True,
            )
        build_s = time.perf_counter() - started
        log(f"ui: next build took {build_s:.1f} s")
        argv = [next_bin, "start", "--hostname", "127.0.0.1", "--port", str(port)]
        server = processes.start(
            "next start", argv, cwd=FRONTEND, env=env, log_file=logs / "next-start.log"
        )
        try:
            wait_until(
                lambda: _answers(f"{origin}/robots.txt"),
                timeout=60,
                what="next start",
                process=server,
            )
            yield origin, build_s
        finally:
            processes.stop(server)
    finally:
        shutil.rmtree(FRONTEND / dist_dir, ignore_errors=True)
        (FRONTEND / f"{dist_dir}.tsconfig.json").unlink(missing_ok=True)


def _answers(url: str) -> bool:
    try:
        return httpx.get(url, timeout=5).status_code == 200
    except httpx.HTTPError:
        return False


def _timed_get(client: httpx.Client, url: str, text: str, **headers: str) -> tuple[float, str]:
    """Milliseconds for one GET, and whether Next served it from its cache (`x-nextjs-cache`)."""
    started = time.perf_counter()
    response = client.get(url, headers=headers)
    elapsed = (time.perf_counter() - started) * 1000
    response.raise_for_status()
    if text not in response.text:
        raise RuntimeError(f"{url} does not show {text!r}")
    return elapsed, response.headers.get("x-nextjs-cache", "")


def _series(times: list[float], caches: list[str]) -> dict[str, Any]:
    p50, p95 = p50_p95(times)
    return {"gets": len(times), "p50_ms": p50, "p95_ms": p95, "cache_hits": caches.count("HIT")}


def _answer_edit(question: Question, content: str, origin: str) -> None:
    """Stores the answer again as a regenerated one is stored, with this build as the UI Django
    tells (the bench runs tasks eagerly: the revalidation is posted before this returns)."""
    record = AnswerRecord(
        slug=question.slug, question=question.question, user_question=question.user_question,
        content=content, references=question.references, trust_score=question.trust_score,
        source=question.source, extractive=True,
    )  # fmt: skip
    with override_settings(UI_INTERNAL_URL=origin, UI_REVALIDATE_SECRET=REVALIDATE_SECRET):
        question_save(guru=question.guru, record=record, existing=question)


def question_page_times(origin: str, guru: Guru, *, gets: int) -> dict[str, Any]:
    """A stored question page: its first render (the route's code already loaded, by a page of
    a question that does not exist), `gets` GETs served from Next's cache, `gets` GETs with a
    cookie (rendered per request, as every GET was before the cache), and the first GET after
    the answer changed, which Django's revalidation must have dropped from the cache."""
    query = Question.objects.filter(guru=guru, binge__isnull=True).exclude(content="")
    question = query.select_related("guru").order_by("pk").first()
    if question is None:
        raise RuntimeError("no stored answer to serve: the warm-up answered nothing")
    url = f"{origin}/g/{guru.slug}/{question.slug}"
    row: dict[str, Any] = {"path": url.removeprefix(origin)}
    with httpx.Client(timeout=60) as client:
        if client.get(f"{origin}/g/{guru.slug}/bench-no-such-question").status_code != 404:
            raise RuntimeError("a question that does not exist is not a 404")
        first = _timed_get(client, url, question.question)
        row["first_render_ms"], row["first_render_cache"] = first
        series: dict[str, tuple[list[float], list[str]]] = {
            "cached": ([], []),
            "per_request": ([], []),
        }
        cookie = {"Cookie": "sessionid=bench-anonymous"}
        for i in range(UNTIMED_GETS + gets):
            for name, headers in (("cached", {}), ("per_request", cookie)):
                elapsed, cache = _timed_get(client, url, question.question, **headers)
                if i >= UNTIMED_GETS:
                    series[name][0].append(elapsed)
                    series[name][1].append(cache)
        row |= {name: _series(*values) for name, values in series.items()}
        original = question.content
        edited = f"{original}\n\nEdited for the bench."
        _answer_edit(question, edited, origin)
        # Rendered again with the edit, not served stale: the revalidation expired the page.
        after = _timed_get(client, url, "Edited for the bench.")
        row["after_revalidation_ms"], row["after_revalidation_cache"] = after
        _answer_edit(question, original, origin)
    return row


def _site_ask(page: "Page", url: str, label: str, question: str, timeout_s: float) -> dict:
    page.goto(url)
    page.get_by_label(label).fill(question)
    result: dict[str, Any] = page.evaluate(_MEASURE, {"timeout": timeout_s * 1000})
    return result


def first_token(
    api: ApiServer, origin: str, guru: Guru, questions: list[str], *, timeout: float
) -> dict[str, Any]:
    browser = BrowserThread()
    site_ms: list[float] = []
    api_ms: list[float] = []
    outcomes: dict[str, list[str]] = {"site": [], "api_sse": []}
    label = f"Ask {guru.name} a question"
    try:
        page = browser.start().new_page()
        for i, question in enumerate(questions):
            if i % 2:
                url = f"{origin}/g/{guru.slug}"
                seen = browser.run(_site_ask, page, url, label, question, timeout)
                outcomes["site"].append(seen["outcome"])
                if seen["outcome"] == "answered" and seen["first_ms"] is not None:
                    site_ms.append(seen["first_ms"])
            else:
                api_first_token(
                    api, guru, question, timeout, outcomes=outcomes["api_sse"], times_ms=api_ms
                )
        version = browser.version
    finally:
        browser.stop()
    return first_token_row(
        "site", browser_ms=site_ms, api_ms=api_ms, outcomes=outcomes, chromium=version
    )


def run_ui(
    *,
    api: ApiServer,
    guru: Guru,
    questions: list[str],
    page_gets: int,
    timeout: float,
    processes: ChildProcesses,
    logs: Path,
    log: Callable[[str], None],
) -> dict[str, Any]:
    log("ui: building the Q&A site (next build)")
    with production_site(api, processes, logs, log) as (origin, build_s):
        page = question_page_times(origin, guru, gets=page_gets)
        log(f"ui: stored question page {page}")
        log(f"ui: {len(questions)} questions alternating between the site and the SSE stream")
        ttft = first_token(api, origin, guru, questions, timeout=timeout)
        log(f"ui: first answer text {ttft}")
    return {"next_build_s": round(build_s, 1), "question_page": page, "first_token": ttft}

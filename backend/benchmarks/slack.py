"""Section — the Slack bot (and the GitHub App's webhook) as they run in production: signed
events POSTed to a gunicorn server whose Celery calls go to a real broker (Redis), answered by a
Celery worker into a loopback stand-in of the Slack Web API, with the same fake LLM as the other
answer sections.

Reported: the acknowledgement latency of `events` signed events sent at once (Slack gives up
after 3 s and retries), and for each event the time to the "Thinking…" post, to the first edit
and to the final answer; the same times for events sent one at a time, as the unloaded floor.
Then the GitHub App webhook's acknowledgement of as many deliveries sent at once, on the same
server (`github_webhook.py`)."""

import asyncio
import hmac
import json
import os
import subprocess
import sys
import time
from collections.abc import Callable
from contextlib import suppress
from pathlib import Path
from typing import TYPE_CHECKING, Any

import httpx
from celery import Celery
from openguru.gurus.models import Guru
from openguru.integrations.apikeys.services import admin_token_owner
from openguru.integrations.bots.services import (
    IntegrationSetup,
    integration_create,
    integration_delete,
)
from openguru.integrations.models import Integration

from benchmarks.api_server import ApiServer, llm_env, start_gunicorn
from benchmarks.config import SLACK_ONE_AT_A_TIME
from benchmarks.github_webhook import github_stand_in, github_webhook_ack
from benchmarks.paths import BACKEND_DIR
from benchmarks.processes import ChildProcesses
from benchmarks.stats import p50_p95, rounded

if TYPE_CHECKING:
    from tests.fakes.slack_server import FakeSlackServer

BROKER_URL = os.environ.get("BENCH_SLACK_BROKER_URL", "redis://127.0.0.1:6379/5")
ACK_DEADLINE_MS = 3000.0  # Slack's
TEAM, CHANNEL, BOT_USER = "T0BENCH", "C0BENCH", "U0BOT"
BOT_TOKEN, SIGNING_SECRET = "xoxb-bench", "bench-signing-secret"
WORKER_CONCURRENCY = 2


def _signed(payload: dict[str, Any]) -> tuple[bytes, dict[str, str]]:
    body = json.dumps(payload).encode()
    stamp = str(int(time.time()))
    digest = hmac.new(SIGNING_SECRET.encode(), b"v0:" + stamp.encode() + b":" + body, "sha256")
    headers = {
        "Content-Type": "application/json",
        "X-Slack-Signature": f"v0={digest.hexdigest()}",
        "X-Slack-Request-Timestamp": stamp,
    }
    return body, headers


def _event(question: str, ts: str) -> dict[str, Any]:
    return {
        "type": "event_callback",
        "team_id": TEAM,
        "event_id": f"Ev{ts.replace('.', '')}",
        "event": {
            "type": "app_mention",
            "user": "U0ASKER",
            "text": f"<@{BOT_USER}> {question}",
            "ts": ts,
            "channel": CHANNEL,
        },
        "authorizations": [{"team_id": TEAM, "user_id": BOT_USER, "is_bot": True}],
    }


async def _post(client: httpx.AsyncClient, url: str, payload: dict[str, Any]) -> float:
    """Send one event; the milliseconds until Slack would have its 200."""
    body, headers = _signed(payload)
    start = time.monotonic()
    response = await client.post(url, content=body, headers=headers)
    response.raise_for_status()
    return (time.monotonic() - start) * 1000


def _replies(slack_api: "FakeSlackServer", sent: dict[str, float]) -> dict[str, dict[str, float]]:
    """Per event ts: ms from sending it to the Thinking post, the first edit and the final one."""
    with slack_api._calls_lock:
        calls = list(slack_api.calls)
    reply_of = {c.ts: c.body.get("thread_ts", "") for c in calls if c.method == "chat.postMessage"}
    seen: dict[str, dict[str, float]] = {}
    for call in calls:
        event_ts = reply_of.get(call.ts, "")
        if event_ts not in sent:
            continue
        ms = (call.at - sent[event_ts]) * 1000
        times = seen.setdefault(event_ts, {})
        if call.method == "chat.postMessage":
            times["thinking_ms"] = ms
        elif call.method == "chat.update":
            times.setdefault("first_edit_ms", ms)
            if "*Trust score:*" in str(call.body.get("text", "")):
                times["final_ms"] = ms
    return seen


def _wait_for_finals(
    slack_api: "FakeSlackServer", sent: dict[str, float], timeout: float
) -> dict[str, dict[str, float]]:
    deadline = time.monotonic() + timeout
    while True:
        seen = _replies(slack_api, sent)
        done = sum("final_ms" in times for times in seen.values())
        if done == len(sent) or time.monotonic() > deadline:
            return seen
        time.sleep(0.2)


def _summary(acks: list[float], seen: dict[str, dict[str, float]], sent: int) -> dict[str, Any]:
    def spread(values: list[float]) -> dict[str, float | None]:
        p50, p95 = p50_p95(values)
        return {"p50_ms": p50, "p95_ms": p95, "max_ms": rounded(max(values, default=0.0))}

    def of(key: str) -> list[float]:
        return [times[key] for times in seen.values() if key in times]

    return {
        "events": sent,
        "ack": spread(acks) | {"under_3s": sum(ms < ACK_DEADLINE_MS for ms in acks)},
        "event_to_thinking": spread(of("thinking_ms")),
        "event_to_first_edit": spread(of("first_edit_ms")),
        "event_to_final": spread(of("final_ms")),
        "answered": len(of("final_ms")),
    }


def _round(
    url: str, slack_api: "FakeSlackServer", questions: list[str], *, label: str, at_once: bool
) -> dict[str, Any]:
    events = [_event(q, f"{label}{i:04d}.000001") for i, q in enumerate(questions, start=1)]
    sent: dict[str, float] = {}
    acks: list[float] = []

    async def send(client: httpx.AsyncClient, payload: dict[str, Any]) -> None:
        sent[payload["event"]["ts"]] = time.monotonic()
        acks.append(await _post(client, url, payload))

    async def run() -> None:
        async with httpx.AsyncClient(timeout=60) as client:
            if at_once:
                await asyncio.gather(*(send(client, payload) for payload in events))
                return
            for payload in events:
                await send(client, payload)
                ts = payload["event"]["ts"]
                _wait_for_finals(slack_api, {ts: sent[ts]}, timeout=120)

    asyncio.run(run())
    seen = _wait_for_finals(slack_api, sent, timeout=60 + 10 * len(events))
    return _summary(acks, seen, len(events))


def _purge(broker_url: str) -> None:
    app = Celery(broker=broker_url, set_as_current=False)
    with app.connection_for_write() as conn, suppress(Exception):
        conn.default_channel.queue_purge("light")  # type: ignore[attr-defined]


def _start_worker(
    processes: ChildProcesses, api: ApiServer, env: dict[str, str], logs: Path
) -> "subprocess.Popen[bytes]":
    argv = [sys.executable, "-m", "celery", "-A", "config", "worker", "-Q", "light",
            "--concurrency", str(WORKER_CONCURRENCY), "--pool", "prefork", "-l", "WARNING",
            "--without-gossip", "--without-mingle", "--without-heartbeat"]  # fmt: skip
    full_env = {**os.environ, **llm_env(api.llm_base_url), **env}
    log_file = logs / "slack_worker.log"
    return processes.start("slack worker", argv, cwd=BACKEND_DIR, env=full_env, log_file=log_file)


def run_slack(
    *,
    api: ApiServer,
    guru: Guru,
    questions: list[str],
    processes: ChildProcesses,
    logs: Path,
    log: Callable[[str], None],
) -> dict[str, Any]:
    from tests.fakes.slack_server import FakeSlackServer

    warm_up, rest = questions[:1], questions[1:]
    sequential, burst = rest[:SLACK_ONE_AT_A_TIME], rest[SLACK_ONE_AT_A_TIME:]
    _purge(BROKER_URL)
    # A run stopped half-way leaves its integration behind in the bench state.
    for stale in Integration.objects.filter(type=Integration.Type.SLACK, external_id=TEAM):
        integration_delete(integration=stale)
    with FakeSlackServer(token=BOT_TOKEN) as slack_api, github_stand_in() as (github, app_key):
        integration = integration_create(
            guru=guru,
            type=Integration.Type.SLACK,
            setup=IntegrationSetup(
                external_id=TEAM,
                bot_token=BOT_TOKEN,
                signing_secret=SIGNING_SECRET,
                channels=[{"id": CHANNEL, "mode": "mention"}],
            ),
            owner=admin_token_owner(),
        )
        env = {
            "CELERY_BROKER_URL": BROKER_URL,
            "CELERY_TASK_ALWAYS_EAGER": "false",
            "SLACK_API_URL": slack_api.api_url,
            "GITHUB_API_URL": github.url,
        }
        web = start_gunicorn(
            processes,
            llm_base_url=api.llm_base_url,
            latency=api.latency,
            workers=api.workers,
            logs=logs,
            name="gunicorn-slack",
            extra_env=env,
        )
        worker = _start_worker(processes, api, env, logs)
        url = f"{web.url}/api/slack/events/"
        try:
            log(f"slack: {len(sequential)} events one at a time, then {len(burst)} at once")
            _round(url, slack_api, warm_up, label="9", at_once=False)
            one_by_one = _round(url, slack_api, sequential, label="1", at_once=False)
            at_once = _round(url, slack_api, burst, label="2", at_once=True)
            log(f"github: {len(burst)} webhook deliveries at once")
            github_ack = github_webhook_ack(
                origin=web.url, guru=guru, github=github, private_key=app_key, questions=burst
            )
        finally:
            processes.stop(worker)
            processes.stop_pid(web.pid)
            integration_delete(integration=integration)
    row = {
        "broker": BROKER_URL.split("://")[0],
        "web_workers": api.workers,
        "worker_concurrency": WORKER_CONCURRENCY,
        "one_at_a_time": one_by_one,
        "at_once": at_once,
        "ack_deadline_ms": ACK_DEADLINE_MS,
        "every_ack_under_deadline": at_once["ack"]["under_3s"] == at_once["events"],
        "github_webhook": github_ack,
    }
    log(f"slack: {row}")
    return row

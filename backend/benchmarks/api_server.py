"""The production server configuration (gunicorn with uvicorn workers) on the bench state, talking
to the loopback fake OpenAI server with a fixed latency per call and per token."""

import asyncio
import os
import sys
from dataclasses import dataclass
from pathlib import Path

import httpx
from openguru.providers.vectorstore.lite_server import free_port

from benchmarks.paths import BACKEND_DIR, REPO_DIR
from benchmarks.processes import (
    ChildProcesses,
    children_of,
    has_mapped,
    port_open,
    wait_until,
)

FAKE_MODEL = "fake-gpt"
TORCH_LIBRARY = "libtorch_cpu"  # mapped once a worker has loaded the embedding model
# Each worker imports Django, torch and the embedding model: minutes on a busy 2-core host.
START_TIMEOUT_SECONDS = 360


@dataclass(frozen=True)
class LlmLatency:
    """How long the fake LLM takes. By default each call takes `call_ms` to its first answer
    token whatever it says, the issue's "fixed 300 ms per call" that the TTFT targets are
    ratios of. `fixed_call=False` paces it like a model, and so is harsher: `token_ms` also
    before a stream's first token and for each token of a structured-output answer."""

    call_ms: float = 300.0  # before the first byte of every call
    token_ms: float = 20.0  # between streamed tokens
    fixed_call: bool = True

    @property
    def profile(self) -> str:
        return "fixed_call" if self.fixed_call else "paced"


@dataclass(frozen=True)
class ApiServer:
    url: str
    pid: int  # the gunicorn master: its process tree is the server
    llm_base_url: str
    latency: LlmLatency
    workers: int

    def stream_url(self, slug: str) -> str:
        return f"{self.url}/api/gurus/{slug}/answer/stream/"

    def json_url(self, slug: str) -> str:
        return f"{self.url}/api/gurus/{slug}/answer/"

    def v1_answer_url(self, slug: str) -> str:
        return f"{self.url}/api/v1/{slug}/answer/"


def start_fake_llm(processes: ChildProcesses, latency: LlmLatency, logs: Path) -> str:
    port = free_port()
    argv = [sys.executable, "-m", "tests.fakes.openai_server", "--port", str(port)]
    argv += ["--call-ms", str(latency.call_ms), "--token-ms", str(latency.token_ms)]
    argv += ["--fixed-call"] if latency.fixed_call else []
    process = processes.start(
        "fake LLM",
        argv,
        cwd=REPO_DIR,
        env={"PATH": "/usr/bin:/bin", "PYTHONUNBUFFERED": "1"},
        log_file=logs / "fake_llm.log",
    )
    wait_until(lambda: port_open(port), timeout=30, what="fake LLM", process=process)
    return f"http://127.0.0.1:{port}/v1"


def start_api(
    processes: ChildProcesses, *, latency: LlmLatency, workers: int, logs: Path
) -> ApiServer:
    """Start the fake LLM and gunicorn; return once a health check has answered."""
    llm_base_url = start_fake_llm(processes, latency, logs)
    # No load shedding here: these sections time the engine under any load (the overload
    # section starts a server of its own that sheds as configured).
    return start_gunicorn(
        processes,
        llm_base_url=llm_base_url,
        latency=latency,
        workers=workers,
        logs=logs,
        extra_env={"ANSWER_MAX_IN_FLIGHT": "0"},
    )


def llm_env(llm_base_url: str) -> dict[str, str]:
    """The settings that point a server or worker at the fake LLM."""
    return {
        "LLM_PROVIDER": "openai",
        "OPENAI_BASE_URL": llm_base_url,
        "OPENAI_API_KEY": "x",
        "LLM_MODEL": FAKE_MODEL,
    }


def start_gunicorn(
    processes: ChildProcesses,
    *,
    llm_base_url: str,
    latency: LlmLatency,
    workers: int,
    logs: Path,
    name: str = "gunicorn",
    extra_env: dict[str, str] | None = None,
) -> ApiServer:
    """gunicorn with uvicorn workers on the bench settings plus `extra_env`, asking the fake LLM
    at `llm_base_url`; returns once a health check has answered."""
    port = free_port()
    env = {
        **os.environ,  # the bench settings (database, Milvus, embedder), set by setup_django
        **llm_env(llm_base_url),
        "ASK_RATE_LIMIT_PER_MINUTE": "0",
        "ANONYMOUS_ASKS_PER_HOUR": "0",  # every bench question comes from one address
        "ANONYMOUS_ASKS_PER_DAY": "0",
        "API_RATE_LIMIT_PER_MINUTE": "0",
        # As in production, an answer's quality check is enqueued (to the in-process memory
        # broker, where it stays) for a worker, not run inside the server at the answer's end.
        "CELERY_TASK_ALWAYS_EAGER": "false",
        "PYTHONUNBUFFERED": "1",
        **(extra_env or {}),
    }
    argv = [sys.executable, "-m", "gunicorn", "-k", "uvicorn.workers.UvicornWorker"]
    argv += ["config.asgi:application", "-w", str(workers), "-b", f"127.0.0.1:{port}"]
    argv += ["--timeout", "600", "--graceful-timeout", "10", "--backlog", "2048"]
    process = processes.start(name, argv, cwd=BACKEND_DIR, env=env, log_file=logs / f"{name}.log")
    url = f"http://127.0.0.1:{port}"
    wait_until(
        lambda: _answers(f"{url}/api/health/"),
        timeout=START_TIMEOUT_SECONDS,
        what=name,
        process=process,
    )
    return ApiServer(
        url=url, pid=process.pid, llm_base_url=llm_base_url, latency=latency, workers=workers
    )


def warm_every_worker(api: ApiServer, *, rounds: int = 30) -> int:
    """Load the embedding model in every worker before anything is timed: the kernel decides
    which worker accepts a connection, so health checks (which embed a word) go out in bursts
    until each worker has torch mapped. Returns how many workers are warm."""
    for _ in range(rounds):
        workers = children_of(api.pid)
        warm = sum(has_mapped(pid, TORCH_LIBRARY) for pid in workers)
        if workers and warm == len(workers):
            return warm
        asyncio.run(_health_burst(f"{api.url}/api/health/", api.workers * 4))
    return sum(has_mapped(pid, TORCH_LIBRARY) for pid in children_of(api.pid))


async def _health_burst(url: str, count: int) -> None:
    async with httpx.AsyncClient(timeout=120) as client:
        await asyncio.gather(*(client.get(url) for _ in range(count)), return_exceptions=True)


def _answers(url: str) -> bool:
    try:
        httpx.get(url, timeout=60)
    except httpx.HTTPError:
        return False
    return True

"""`make run`: the whole platform on embedded defaults, on loopback, stopped cleanly by Ctrl-C.

Starts, in order: the Milvus Lite server, migrations and the first admin, the Celery workers
(`config/workers.py`) and beat, the Django ASGI server (uvicorn) and the Next.js UI: its
production build under `next start` (built on the first run and again only when frontend/
changed, see ui_build.py), or `next dev` with `--ui dev`. Every child runs in its own process
group so Ctrl-C stops the whole tree and nothing is left behind; a child that crashes is
started again after a backoff (1 s, 2 s, 4 s ... up to 30 s) while the rest keeps running.
"""

import argparse
import os
import secrets
import signal
import subprocess
import sys
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from functools import partial
from pathlib import Path

from ui_build import ui_argv, ui_build_if_changed

BACKEND = Path(__file__).resolve().parent.parent
REPO = BACKEND.parent
FRONTEND = REPO / "frontend"
NEXT_BIN = FRONTEND / "node_modules" / ".bin" / "next"
sys.path.insert(0, str(BACKEND))

VENV_BIN = Path(sys.executable).parent
KEEP_ALIVE_SECONDS = 75  # as gunicorn's (config/gunicorn.conf.py)


def _parse() -> argparse.Namespace:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--api-port", type=int, default=8000)
    parser.add_argument("--ui-port", type=int, default=3000)
    parser.add_argument("--milvus-port", type=int, default=19530)
    parser.add_argument(
        "--ui",
        choices=["start", "dev"],
        default="start",
        help="start: the production build (built when frontend/ changed); dev: next dev",
    )
    return parser.parse_args()


@dataclass
class Child:
    """A supervised process and how to start it again: `start` spawns it (or, for Milvus Lite,
    starts the server and returns its process once it listens)."""

    name: str
    start: Callable[[], subprocess.Popen]
    optional: bool
    process: subprocess.Popen
    started_at: float = field(default_factory=time.monotonic)
    crashes: int = 0  # in a row, each before the child had stayed up for `stable_after`
    restart_at: float | None = None  # set while the child waits out its backoff


class Supervisor:
    """Starts the children, restarts a crashed one with exponential backoff and stops them all,
    in reverse order, on Ctrl-C.

    A crash is an exit by a signal or with a non-zero code; a required child that exits with 0
    did so on purpose (it was told to stop) and stops the platform. An optional child (the
    Discord listener) is restarted only after a signal: its own non-zero exit means its setup
    was rejected (a bad token, say), which a retry every 30 s would not fix."""

    def __init__(
        self,
        *,
        first_delay: float = 1.0,
        max_delay: float = 30.0,
        stable_after: float = 60.0,
        poll: float = 0.5,
    ) -> None:
        self._children: list[Child] = []
        self.first_delay, self.max_delay, self.stable_after = first_delay, max_delay, stable_after
        self.poll = poll

    @property
    def children(self) -> list[tuple[str, subprocess.Popen]]:
        return [(child.name, child.process) for child in self._children]

    def spawn(
        self, name: str, argv: list[str], *, cwd: Path, env: dict[str, str], optional: bool = False
    ) -> None:
        def start() -> subprocess.Popen:
            return subprocess.Popen(argv, cwd=cwd, env=env, start_new_session=True)

        self.adopt(name, start, optional=optional)

    def adopt(
        self, name: str, start: Callable[[], subprocess.Popen], *, optional: bool = False
    ) -> None:
        """Supervise a process that `start` launches (now, and again after each crash)."""
        self._children.append(Child(name, start, optional, start()))

    def stop(self) -> None:
        # Reverse order: the UI and API go first, the vector store last.
        for _name, process in reversed(self.children):
            if process.poll() is None:
                os.killpg(process.pid, signal.SIGTERM)
        deadline = time.monotonic() + 15
        for _name, process in reversed(self.children):
            try:
                process.wait(timeout=max(0.1, deadline - time.monotonic()))
            except subprocess.TimeoutExpired:
                os.killpg(process.pid, signal.SIGKILL)
                process.wait()

    def watch(self) -> None:
        """Until a required child exits with 0 (or Ctrl-C): restart crashed children."""
        while True:
            for child in self._children:
                if child.restart_at is not None:
                    self._restart_when_due(child)
                elif child.process.poll() is not None and not self._on_exit(child):
                    return
            time.sleep(self.poll)

    def _on_exit(self, child: Child) -> bool:
        """False when the platform should stop."""
        code = child.process.returncode
        said = f"\n{child.name} exited with code {code}"
        if child.optional and code >= 0:
            print(f"{said}; the rest runs on.", flush=True)
            child.restart_at = float("inf")  # never
            return True
        if code == 0 and not child.optional:
            print(f"{said}; stopping.", flush=True)
            return False
        self._back_off(child, said)
        return True

    def _back_off(self, child: Child, said: str) -> None:
        if time.monotonic() - child.started_at >= self.stable_after:
            child.crashes = 0
        delay = min(self.max_delay, self.first_delay * 2**child.crashes)
        child.crashes += 1
        again = f" ({child.crashes} times in a row, each soon after starting)"
        print(f"{said}{again if child.crashes > 1 else ''}; restarting in {delay:g} s.", flush=True)
        child.restart_at = time.monotonic() + delay

    def _restart_when_due(self, child: Child) -> None:
        assert child.restart_at is not None
        if time.monotonic() < child.restart_at:
            return
        child.restart_at, child.started_at = None, time.monotonic()
        try:
            child.process = child.start()
        except Exception as exc:  # e.g. Milvus Lite exits or never listens: a crash like any
            self._back_off(child, f"\n{child.name} did not start ({exc})")
            return
        print(f"{child.name} restarted.", flush=True)


def stop_on_signals() -> None:
    """Ctrl-C (SIGINT) and SIGTERM both stop the platform. SIGINT is set explicitly: a shell
    that starts `make run` in the background hands it SIGINT ignored, and Python then leaves it
    ignored."""
    signal.signal(signal.SIGINT, signal.default_int_handler)
    signal.signal(signal.SIGTERM, lambda *_: (_ for _ in ()).throw(KeyboardInterrupt()))


def _manage(env: dict[str, str], *args: str) -> None:
    subprocess.run([sys.executable, "manage.py", *args], cwd=BACKEND, env=env, check=True)


def _has_discord_bots(env: dict[str, str]) -> bool:
    check = [sys.executable, "manage.py", "discord_listener", "--check"]
    return subprocess.run(check, cwd=BACKEND, env=env, capture_output=True).returncode == 0


def children_env(*, api_port: int, ui_port: int, milvus_port: int) -> dict[str, str]:
    """The environment every child starts with: this one, with the ports it was given."""
    env = {**os.environ, "PYTHONUNBUFFERED": "1", "NEXT_TELEMETRY_DISABLED": "1"}
    env.setdefault("MILVUS_URI", f"http://127.0.0.1:{milvus_port}")
    env.setdefault("NEXT_PUBLIC_API_URL", f"http://127.0.0.1:{api_port}")
    env.setdefault("OPENGURU_API_URL", f"http://127.0.0.1:{api_port}")

    from config.env import env as settings_env  # also reads .env into os.environ

    # The UI's public origin (canonical links, the console's CSRF origin), unless .env names one.
    env["SITE_URL"] = settings_env.str("SITE_URL", default=f"http://127.0.0.1:{ui_port}")
    # The UI serves public question pages from its cache; Django tells it when one changed, with
    # a secret the two share: .env's, else one for this run (the UI's server reads it at run
    # time, so it is not part of the build).
    env["UI_REVALIDATE_SECRET"] = settings_env.str(
        "UI_REVALIDATE_SECRET", default=""
    ) or secrets.token_urlsafe(32)
    # TRUSTED_PROXIES stays as configured (empty by default): everything here listens on
    # loopback, so every visitor's address is loopback too, and the UI's server relays the
    # browser's own X-Forwarded-For and adds none. Trusting loopback would only let a client
    # name its own address and escape its limits.
    return env


def main() -> int:
    args = _parse()
    env = children_env(api_port=args.api_port, ui_port=args.ui_port, milvus_port=args.milvus_port)

    from config.env import env as settings_env
    from config.workers import EMBEDDED_WORKERS

    data_dir = Path(settings_env.str("OPENGURU_DATA_DIR", default=str(REPO / "data")))
    supervisor = Supervisor()
    stop_on_signals()
    try:
        if env["MILVUS_URI"] == f"http://127.0.0.1:{args.milvus_port}":
            from openguru.providers.vectorstore.lite_server import start_lite_server

            milvus_data = Path(
                settings_env.str(
                    "MILVUS_LITE_DATA", default=str(data_dir / "milvus" / "openguru.db")
                )
            )
            print(f"Milvus Lite on 127.0.0.1:{args.milvus_port} ({milvus_data})", flush=True)
            supervisor.adopt(
                "milvus", partial(start_lite_server, data_file=milvus_data, port=args.milvus_port)
            )
        _manage(env, "migrate", "--no-input", "-v", "0")
        _manage(env, "bootstrap_admin")
        celery = [str(VENV_BIN / "celery"), "-A", "config"]
        for worker in EMBEDDED_WORKERS:  # crawls and small sources each have their own
            supervisor.spawn(
                f"worker {worker.name}", worker.argv(celery, "-l", "INFO"), cwd=BACKEND, env=env
            )
        supervisor.spawn("beat", [*celery, "beat", "-l", "WARNING"], cwd=BACKEND, env=env)
        if _has_discord_bots(env):
            # A rejected token stops the bots, not the platform (the listener says why).
            supervisor.spawn(
                "discord",
                [sys.executable, "manage.py", "discord_listener"],
                cwd=BACKEND,
                env=env,
                optional=True,
            )
        supervisor.spawn(
            "api",
            # --no-proxy-headers: uvicorn would otherwise take a loopback client's own
            # X-Forwarded-For for its address (openguru/core/client_address.py decides).
            # --timeout-keep-alive: longer than Node's idle sockets (5 s), so the UI's /api proxy
            # closes an idle connection before uvicorn does, never reusing one as it closes.
            [str(VENV_BIN / "uvicorn"), "config.asgi:application", "--host", "127.0.0.1",
             "--port", str(args.api_port), "--log-level", "warning", "--no-proxy-headers",
             "--timeout-keep-alive", str(KEEP_ALIVE_SECONDS)],
            cwd=BACKEND,
            env=env,
        )  # fmt: skip
        if args.ui == "start":
            ui_build_if_changed(frontend=FRONTEND, env=env, next_bin=NEXT_BIN)
        ui = ui_argv(next_bin=NEXT_BIN, mode=args.ui, port=args.ui_port)
        supervisor.spawn("ui", ui, cwd=FRONTEND, env=env)
        print(
            f"\nOpenGuru is starting:\n  UI      http://127.0.0.1:{args.ui_port}\n"
            f"  API     http://127.0.0.1:{args.api_port}/api/health/\n"
            f"  Admin   http://127.0.0.1:{args.api_port}/admin/\nPress Ctrl-C to stop.\n",
            flush=True,
        )
        supervisor.watch()
    except KeyboardInterrupt:
        print("\nStopping…", flush=True)
    finally:
        supervisor.stop()
    return 0


if __name__ == "__main__":
    sys.exit(main())

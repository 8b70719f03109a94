"""`make run`: the whole platform on embedded defaults, on loopback, stopped cleanly by Ctrl-C.

Starts, in order: the Milvus Lite server, migrations and the first admin, the Celery worker and
beat, the Django ASGI server (uvicorn) and the Next.js UI. Every child runs in its own process
group so Ctrl-C stops the whole tree and nothing is left behind.
"""

import argparse
import os
import signal
import subprocess
import sys
import time
from pathlib import Path

BACKEND = Path(__file__).resolve().parent.parent
REPO = BACKEND.parent
sys.path.insert(0, str(BACKEND))

VENV_BIN = Path(sys.executable).parent
LOOPBACK_PROXIES = "127.0.0.1/32,::1/128"  # everything embedded listens on loopback only


def _parse() -> argparse.Namespace:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--api-port", type=int, default=8000)
    parser.add_argument("--ui-port", type=int, default=3000)
    parser.add_argument("--milvus-port", type=int, default=19530)
    return parser.parse_args()


class Supervisor:
    def __init__(self) -> None:
        self.children: list[tuple[str, subprocess.Popen]] = []
        self.optional: set[str] = set()  # children whose exit leaves the rest running

    def spawn(
        self, name: str, argv: list[str], *, cwd: Path, env: dict[str, str], optional: bool = False
    ) -> None:
        process = subprocess.Popen(argv, cwd=cwd, env=env, start_new_session=True)
        self.children.append((name, process))
        if optional:
            self.optional.add(name)

    def adopt(self, name: str, process: subprocess.Popen) -> None:
        self.children.append((name, process))

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
        reported: set[str] = set()
        while True:
            for name, process in self.children:
                if process.poll() is None or name in reported:
                    continue
                if name not in self.optional:
                    print(f"\n{name} exited with code {process.returncode}; stopping.", flush=True)
                    return
                reported.add(name)
                print(f"\n{name} exited with code {process.returncode}; the rest runs on.")
            time.sleep(0.5)


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


def main() -> int:
    args = _parse()
    env = {**os.environ, "PYTHONUNBUFFERED": "1", "NEXT_TELEMETRY_DISABLED": "1"}
    env.setdefault("MILVUS_URI", f"http://127.0.0.1:{args.milvus_port}")
    env.setdefault("NEXT_PUBLIC_API_URL", f"http://127.0.0.1:{args.api_port}")
    env.setdefault("OPENGURU_API_URL", f"http://127.0.0.1:{args.api_port}")

    from config.env import env as settings_env  # also reads .env into os.environ

    if "TRUSTED_PROXIES" not in os.environ:
        # The UI's server forwards every browser request to the API from loopback, naming the
        # browser in X-Forwarded-For: without this, all visitors would share one address and
        # one anonymous limit. (Next keeps an X-Forwarded-For the browser sent itself, which
        # is harmless here, everything listening on loopback only.)
        env["TRUSTED_PROXIES"] = LOOPBACK_PROXIES

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
                "milvus", start_lite_server(data_file=milvus_data, port=args.milvus_port)
            )
        _manage(env, "migrate", "--no-input", "-v", "0")
        _manage(env, "bootstrap_admin")
        celery = [str(VENV_BIN / "celery"), "-A", "config"]
        supervisor.spawn(
            "worker",
            [*celery, "worker", "-Q", "ingest,light", "--concurrency", "1", "-l", "INFO"],
            cwd=BACKEND,
            env=env,
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
            [str(VENV_BIN / "uvicorn"), "config.asgi:application", "--host", "127.0.0.1",
             "--port", str(args.api_port), "--log-level", "warning"],
            cwd=BACKEND,
            env=env,
        )  # fmt: skip
        supervisor.spawn(
            "ui",
            ["npx", "next", "dev", "--hostname", "127.0.0.1", "--port", str(args.ui_port)],
            cwd=REPO / "frontend",
            env=env,
        )
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

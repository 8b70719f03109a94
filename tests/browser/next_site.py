"""The Next.js site (`next dev`) on a free loopback port, in a process group of its own so
stopping it also stops the workers it forks."""

import json
import os
import shutil
import signal
import subprocess
import time
from pathlib import Path

import httpx
from openguru.providers.vectorstore.lite_server import free_port

FRONTEND = Path(__file__).resolve().parents[2] / "frontend"


class NextSite:
    def __init__(self, api_origin: str, log: Path) -> None:
        self.port = free_port()
        self.origin = f"http://127.0.0.1:{self.port}"
        self.api_origin = api_origin
        self._log_path = log
        self._process: subprocess.Popen[bytes] | None = None
        self._warmed: set[str] = set()
        self.dist_dir = f".next/browser-tests-{self.port}"
        # Beside the build folder, not in it: `next dev` empties its folder as it starts.
        self._tsconfig_path = FRONTEND / f"{self.dist_dir}.tsconfig.json"

    def start(self, timeout: float = 90) -> "NextSite":
        env = {
            **os.environ,
            "OPENGURU_API_URL": self.api_origin,
            "NEXT_PUBLIC_API_URL": self.api_origin,
            "SITE_URL": self.origin,
            "NEXT_TELEMETRY_DISABLED": "1",
            # A build folder of its own: Next allows one dev server per folder, and a developer's
            # `make run` (or another test run) may hold .next's.
            "NEXT_DIST_DIR": self.dist_dir,
            "NEXT_TSCONFIG_PATH": self._tsconfig(),
        }
        argv = [str(FRONTEND / "node_modules/.bin/next"), "dev", "--hostname", "127.0.0.1"]
        self._log = self._log_path.open("wb")
        self._process = subprocess.Popen(
            [*argv, "--port", str(self.port)],
            cwd=FRONTEND,
            env=env,
            stdout=self._log,
            stderr=subprocess.STDOUT,
            start_new_session=True,
        )
        self._wait_ready(timeout)
        return self

    def _tsconfig(self) -> str:
        """A tsconfig inside the build folder that extends the real one: `next dev` adds its
        build folder's types to the tsconfig it uses, and the real one must stay as committed."""
        path = self._tsconfig_path
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(json.dumps({"extends": "../tsconfig.json"}))
        return str(path.relative_to(FRONTEND))

    def _wait_ready(self, timeout: float) -> None:
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            assert self._process is not None
            if self._process.poll() is not None:
                raise RuntimeError(f"next dev exited: {self._log_path.read_text()[-2000:]}")
            try:
                httpx.get(f"{self.origin}/robots.txt", timeout=60)
                return
            except httpx.HTTPError:
                time.sleep(0.3)
        raise TimeoutError(f"next dev did not answer in {timeout}s")

    def warm(self, *paths: str) -> None:
        """Compiles routes up front (dev compiles each on its first request)."""
        for path in paths:
            httpx.get(f"{self.origin}{path}", timeout=120)
            self._warmed.add(path)

    def serve(self, *paths: str) -> "NextSite":
        """Starts the server unless it runs already, and compiles those of `paths` it has not
        compiled yet: one server serves every test of the process."""
        if self._process is None:
            self.start()
        elif self._process.poll() is not None:
            raise RuntimeError(f"next dev exited: {self._log_path.read_text()[-2000:]}")
        self.warm(*(path for path in paths if path not in self._warmed))
        return self

    def stop(self) -> None:
        if self._process is None:
            return
        try:
            process_group_stop(self._process)
        finally:
            self._log.close()
            shutil.rmtree(FRONTEND / self.dist_dir, ignore_errors=True)
            self._tsconfig_path.unlink(missing_ok=True)


def process_group_stop(process: subprocess.Popen[bytes]) -> None:
    """SIGTERM to a server's process group (next spawns workers), SIGKILL if it lingers."""
    try:
        os.killpg(process.pid, signal.SIGTERM)
        process.wait(timeout=15)
    except subprocess.TimeoutExpired:
        os.killpg(process.pid, signal.SIGKILL)
        process.wait()
    except ProcessLookupError:
        pass

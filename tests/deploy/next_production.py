"""The UI as its image runs it: `next build`, then `next start` on a free loopback port.

frontend/Dockerfile builds with `npx next build` and starts `node_modules/.bin/next start`; the
same two commands run here, from the same `next` binary. The build goes into a folder of its own
inside .next (NEXT_DIST_DIR), so a developer's `make run` and the other tests' `next dev`
servers keep theirs; `next build` adds its folder's types to the tsconfig it is given, so it gets
a tsconfig of its own that extends the committed one (as tests/browser/next_site.py does).
"""

import json
import os
import shutil
import subprocess
import time
from pathlib import Path

import httpx
from openguru.providers.vectorstore.lite_server import free_port

from tests.browser.next_site import FRONTEND, process_group_stop

NEXT = FRONTEND / "node_modules" / ".bin" / "next"
# What Django's revalidation requests must carry to this UI (settings.UI_REVALIDATE_SECRET).
REVALIDATE_SECRET = "production-tests-revalidate"


class NextProduction:
    def __init__(self, *, api_origin: str, log: Path) -> None:
        self.port = free_port()
        self.origin = f"http://127.0.0.1:{self.port}"
        self.api_origin = api_origin
        self.dist_dir = f".next/production-tests-{self.port}"
        self._tsconfig_path = FRONTEND / f"{self.dist_dir}.tsconfig.json"
        self._log_path = log
        self._process: subprocess.Popen[bytes] | None = None

    def _env(self) -> dict[str, str]:
        # The image's build arguments: server-side calls go to the API's origin, and the
        # browser's calls stay same-origin (NEXT_PUBLIC_API_URL empty), which nginx routes.
        return {
            **os.environ,
            "OPENGURU_API_URL": self.api_origin,
            "NEXT_PUBLIC_API_URL": "",
            "NEXT_TELEMETRY_DISABLED": "1",
            "NEXT_DIST_DIR": self.dist_dir,
            "NEXT_TSCONFIG_PATH": self._tsconfig(),
            "UI_REVALIDATE_SECRET": REVALIDATE_SECRET,
        }

    def _tsconfig(self) -> str:
        path = self._tsconfig_path
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(json.dumps({"extends": "../tsconfig.json"}))
        return str(path.relative_to(FRONTEND))

    def build(self, timeout: float = 600) -> "NextProduction":
        with self._log_path.open("wb") as log:
            built = subprocess.run(
                [str(NEXT), "build"],
                cwd=FRONTEND,
                env=self._env(),
                stdout=log,
                stderr=subprocess.STDOUT,
                timeout=timeout,
            )
        if built.returncode:
            raise RuntimeError(f"next build failed:\n{self.log()[-4000:]}")
        return self

    def start(self, site_url: str, timeout: float = 60) -> "NextProduction":
        """`next start`; `site_url` is the public origin (SITE_URL), nginx's here."""
        env = {**self._env(), "NODE_ENV": "production", "SITE_URL": site_url}
        argv = [str(NEXT), "start", "--hostname", "127.0.0.1", "--port", str(self.port)]
        self._log = self._log_path.open("ab")
        self._process = subprocess.Popen(
            argv,
            cwd=FRONTEND,
            env=env,
            stdout=self._log,
            stderr=subprocess.STDOUT,
            start_new_session=True,
        )
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            if self._process.poll() is not None:
                raise RuntimeError(f"next start exited:\n{self.log()[-2000:]}")
            try:
                httpx.get(f"{self.origin}/robots.txt", timeout=10)
                return self
            except httpx.HTTPError:
                time.sleep(0.3)
        raise TimeoutError(f"next start did not answer in {timeout}s")

    def log(self) -> str:
        return self._log_path.read_text(errors="replace")

    def stop(self) -> None:
        if self._process is not None:
            try:
                process_group_stop(self._process)
            finally:
                self._log.close()
        shutil.rmtree(FRONTEND / self.dist_dir, ignore_errors=True)
        self._tsconfig_path.unlink(missing_ok=True)

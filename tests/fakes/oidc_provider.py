"""A real OpenID Connect provider on a loopback port: the `oidc-provider` npm package run by
`oidc_provider.mjs` under node, with one client and the accounts a test names. Its sign-in page
takes any password for a listed login name."""

from __future__ import annotations

import json
import os
import subprocess
import tempfile
import time
from pathlib import Path
from typing import Any

import httpx

from tests.fakes.loopback import free_port

HERE = Path(__file__).resolve().parent
FRONTEND = HERE.parents[1] / "frontend"
CLIENT_ID, CLIENT_SECRET = "openguru-console", "loopback-client-secret"


class LoopbackOidcProvider:
    def __init__(self, *, redirect_uri: str, accounts: dict[str, dict[str, Any]]) -> None:
        self.port = free_port()
        self.issuer = f"http://127.0.0.1:{self.port}"
        self.redirect_uri = redirect_uri
        self.accounts = accounts
        self._process: subprocess.Popen[bytes] | None = None
        # A file, not a pipe: nobody reads a pipe after start, and a full one would block node.
        self._log = Path(tempfile.mkstemp(prefix="oidc-provider-", suffix=".log")[1])

    def start(self, timeout: float = 30) -> LoopbackOidcProvider:
        env = {
            **os.environ,
            "OIDC_FRONTEND_PACKAGE": str(FRONTEND / "package.json"),
            "OIDC_PORT": str(self.port),
            "OIDC_CLIENT_ID": CLIENT_ID,
            "OIDC_CLIENT_SECRET": CLIENT_SECRET,
            "OIDC_REDIRECT_URI": self.redirect_uri,
            "OIDC_ACCOUNTS": json.dumps(self.accounts),
        }
        with self._log.open("wb") as log:
            self._process = subprocess.Popen(
                ["node", str(HERE / "oidc_provider.mjs")],
                env=env,
                stdout=log,
                stderr=subprocess.STDOUT,
                start_new_session=True,
            )
        deadline = time.monotonic() + timeout
        while "ready" not in self.log():
            if self._process.poll() is not None or time.monotonic() > deadline:
                self.stop()
                raise RuntimeError(f"the OpenID provider did not start: {self.log()[-2000:]}")
            time.sleep(0.05)
        return self

    def log(self) -> str:
        return self._log.read_text(errors="replace")

    def settings(self) -> dict[str, str]:
        """The OIDC_* settings for this provider, from its discovery document."""
        found = httpx.get(f"{self.issuer}/.well-known/openid-configuration", timeout=10).json()
        return {
            "OIDC_OP_AUTHORIZATION_ENDPOINT": found["authorization_endpoint"],
            "OIDC_OP_TOKEN_ENDPOINT": found["token_endpoint"],
            "OIDC_OP_USER_ENDPOINT": found["userinfo_endpoint"],
            "OIDC_OP_JWKS_ENDPOINT": found["jwks_uri"],
            "OIDC_RP_CLIENT_ID": CLIENT_ID,
            "OIDC_RP_CLIENT_SECRET": CLIENT_SECRET,
        }

    def stop(self) -> None:
        if self._process is None:
            return
        self._process.terminate()
        try:
            self._process.wait(timeout=10)
        except subprocess.TimeoutExpired:
            self._process.kill()
            self._process.wait()
        self._process = None
        self._log.unlink(missing_ok=True)

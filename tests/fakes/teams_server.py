"""A loopback stand-in for what a Teams bot talks to, in Microsoft's shapes:

- the Bot Framework's OpenID metadata (`/v1/.well-known/openidconfiguration`) and its JWKS
  (`/keys`), publishing an RSA key made here, endorsed for `msteams`; `activity_token` signs an
  incoming activity's JWT with it (or with another key: a forged one);
- the token endpoint (`/{tenant}/oauth2/v2.0/token`, client credentials as a form), which
  checks the app id and secret and hands out a bearer token;
- the Bot Connector (`POST /v3/conversations/{id}/activities`, `PUT …/activities/{id}`), which
  checks that token, refuses a message over `MESSAGE_LIMIT_BYTES` (the whole activity as
  UTF-16) with 413 `MessageSizeTooBig`, answers 429 with Retry-After when told to, and records
  what it was sent. Point `TEAMS_OPENID_METADATA_URL`, `TEAMS_TOKEN_URL` and the activities'
  `serviceUrl` here."""

from __future__ import annotations

import itertools
import json
import re
import threading
import time
from dataclasses import dataclass
from typing import Any, ClassVar
from urllib.parse import unquote

import jwt
from cryptography.hazmat.primitives.asymmetric import rsa

from tests.fakes.loopback import FakeHandler, HttpFailure, LoopbackApp, Route

ISSUER = "https://api.botframework.com"
KEY_ID = "test-signing-key"
# The documented bot message limit is about 100 KB (80 KB recommended); older pages said 40 KB:
# the stand-in holds the bot to the stricter one.
MESSAGE_LIMIT_BYTES = 40 * 1024


def rsa_key() -> rsa.RSAPrivateKey:
    return rsa.generate_private_key(public_exponent=65537, key_size=2048)


@dataclass(frozen=True)
class ConnectorCall:
    method: str  # "POST" (a new message) or "PUT" (an update)
    conversation_id: str
    activity_id: str  # the new message's id, or the updated one's
    body: dict[str, Any]
    at: float = 0.0


class FakeTeamsServer(LoopbackApp):
    error_statuses: ClassVar[dict[int, str]] = {}

    def __init__(self, *, app_id: str, app_secret: str, **options: Any) -> None:
        super().__init__(**options)
        self.app_id, self.app_secret = app_id, app_secret
        self.key = rsa_key()
        self.bot_tokens: list[str] = []  # handed out by the token endpoint
        self.token_requests: list[dict[str, Any]] = []
        self.calls: list[ConnectorCall] = []
        self.limited: list[ConnectorCall] = []
        self.too_large: list[ConnectorCall] = []
        self._limit_next: dict[str, tuple[int, int]] = {}
        self.refuse_updates: int | None = None  # a status every update is answered with
        self._ids = itertools.count(1)
        self._calls_lock = threading.Lock()

    @property
    def service_url(self) -> str:
        return f"{self.origin}/"

    @property
    def metadata_url(self) -> str:
        return f"{self.origin}/v1/.well-known/openidconfiguration"

    @property
    def token_url(self) -> str:
        return self.origin + "/{tenant}/oauth2/v2.0/token"

    def routes(self) -> list[tuple[str, re.Pattern[str], Route]]:
        activities = r"/v3/conversations/([^/]+)/activities"
        return [
            ("GET", re.compile(r"/v1/\.well-known/openidconfiguration"), self._metadata),
            ("GET", re.compile(r"/keys"), self._keys),
            ("POST", re.compile(r"/([^/]+)/oauth2/v2\.0/token"), self._token),
            ("POST", re.compile(activities), self._post),
            ("PUT", re.compile(activities + r"/([^/]+)"), self._put),
        ]

    def error_body(self, status: int, message: str) -> object:
        return {"error": {"code": "ServiceError", "message": message}}

    # --- what a test does ------------------------------------------------------------------

    def activity_token(
        self,
        *,
        audience: str | None = None,
        service_url: str | None = None,
        expires_in: int = 3600,
        key: rsa.RSAPrivateKey | None = None,
        issuer: str = ISSUER,
    ) -> str:
        """A JWT as the Bot Connector signs an activity it sends the bot."""
        now = int(time.time())
        claims = {
            "iss": issuer,
            "aud": audience or self.app_id,
            "serviceUrl": service_url or self.service_url,
            "nbf": now - 60,
            "iat": now - 60,
            "exp": now + expires_in,
        }
        return jwt.encode(claims, key or self.key, algorithm="RS256", headers={"kid": KEY_ID})

    def rate_limit_next(self, method: str, *, count: int = 1, retry_after: int = 1) -> None:
        with self._calls_lock:
            self._limit_next[method] = (count, retry_after)

    def of(self, method: str) -> list[ConnectorCall]:
        with self._calls_lock:
            return [call for call in self.calls if call.method == method]

    # --- the far end -----------------------------------------------------------------------

    def _metadata(self, handler: FakeHandler, match: re.Match[str], body: dict) -> None:
        handler.send_json(
            200,
            {
                "issuer": ISSUER,
                "authorization_endpoint": "https://invalid.botframework.com",
                "jwks_uri": f"{self.origin}/keys",
                "id_token_signing_alg_values_supported": ["RS256"],
                "token_endpoint_auth_methods_supported": ["private_key_jwt"],
            },
        )

    def _keys(self, handler: FakeHandler, match: re.Match[str], body: dict) -> None:
        public = json.loads(jwt.algorithms.RSAAlgorithm.to_jwk(self.key.public_key()))
        public |= {"kid": KEY_ID, "use": "sig", "endorsements": ["msteams", "webchat"]}
        handler.send_json(200, {"keys": [public]})

    def _token(self, handler: FakeHandler, match: re.Match[str], body: dict) -> None:
        self.token_requests.append({"tenant": match.group(1), **body})
        right = (body.get("client_id"), body.get("client_secret")) == (
            self.app_id,
            self.app_secret,
        )
        if body.get("grant_type") != "client_credentials" or not right:
            handler.send_json(
                401,
                {
                    "error": "invalid_client",
                    "error_description": "AADSTS7000215: Invalid client secret provided.",
                },
            )
            return
        token = f"bot-token-{len(self.bot_tokens) + 1}"
        self.bot_tokens.append(token)
        handler.send_json(
            200,
            {
                "token_type": "Bearer",
                "expires_in": 3599,
                "ext_expires_in": 3599,
                "access_token": token,
            },
        )

    def _connector(
        self, handler: FakeHandler, method: str, conversation: str, activity_id: str, body: dict
    ) -> None:
        authorization = handler.headers.get("Authorization", "")
        if authorization.removeprefix("Bearer ") not in self.bot_tokens:
            raise HttpFailure(401, "Authorization has been denied for this request.")
        call = ConnectorCall(method, unquote(conversation), activity_id, body, time.monotonic())
        size = len(json.dumps(body, ensure_ascii=False).encode("utf-16-le"))
        with self._calls_lock:
            left, retry_after = self._limit_next.get(method, (0, 0))
            if left:
                self._limit_next[method] = (left - 1, retry_after)
                self.limited.append(call)
            elif size > MESSAGE_LIMIT_BYTES:
                self.too_large.append(call)
            else:
                self.calls.append(call)
        if left:
            handler.send_json(
                429, self.error_body(429, "Too many requests"), {"Retry-After": str(retry_after)}
            )
        elif size > MESSAGE_LIMIT_BYTES:
            error = {"error": {"code": "MessageSizeTooBig", "message": "Message size too big"}}
            handler.send_json(413, error)
        else:
            handler.send_json(200 if method == "PUT" else 201, {"id": activity_id})

    def _post(self, handler: FakeHandler, match: re.Match[str], body: dict) -> None:
        new_id = f"1700000000{next(self._ids):03d}"
        self._connector(handler, "POST", match.group(1), new_id, body)

    def _put(self, handler: FakeHandler, match: re.Match[str], body: dict) -> None:
        if self.refuse_updates is not None:
            raise HttpFailure(self.refuse_updates, "The message cannot be updated.")
        self._connector(handler, "PUT", match.group(1), unquote(match.group(2)), body)

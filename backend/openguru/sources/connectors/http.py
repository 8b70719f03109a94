"""HTTP for connectors: JSON over requests, with the outside API's limits honoured.

- 429, or 403 with Retry-After or no requests left (GitHub's rate limits), waits as told
  (Retry-After, else until X-RateLimit-Reset), bounded by CONNECTOR_RETRY_AFTER_MAX_SECONDS;
- 5xx and dropped connections are retried with a growing pause;
- after CONNECTOR_MAX_RETRIES the run ends with a TransientError (the task retries it later);
- 401 is the token: a DomainError that says so, never retried.
Pages follow the Link header's rel="next".
"""

import logging
import time
from collections.abc import Callable, Iterator, Mapping
from typing import Any
from urllib.parse import urlsplit

import requests
from django.conf import settings

from openguru.core.errors import DomainError, ErrorCode, TransientError

logger = logging.getLogger(__name__)

_TIMEOUT_SECONDS = 30.0
_BACKOFF_SECONDS = 0.5

Sleep = Callable[[float], None]


class ApiClient:
    def __init__(
        self,
        *,
        base_url: str,
        headers: Mapping[str, str],
        service: str,  # how a message names the far end: "GitHub"
        subject: str = "the repository",  # what a 403/404 says was not found or not readable
        sleep: Sleep = time.sleep,
    ) -> None:
        self._base_url = base_url.rstrip("/")
        self._session = requests.Session()
        self._session.headers.update(headers)
        self._service = service
        self._subject = subject
        self._sleep = sleep

    def get(self, path: str, params: Mapping[str, Any] | None = None) -> requests.Response:
        return self._send("GET", self._url(path), params=params)

    def post(self, path: str, body: Mapping[str, Any]) -> requests.Response:
        return self._send("POST", self._url(path), json=body)

    def pages(self, path: str, params: Mapping[str, Any]) -> Iterator[list[Any]]:
        """Each page of a listing, following rel="next" links until the last page."""
        response = self.get(path, params)
        while True:
            yield list(response.json())
            following = response.links.get("next", {}).get("url")
            if not following:
                return
            response = self.follow(following)

    def follow(self, url: str) -> requests.Response:
        """GET a next-page link the API sent, only on the API's own host."""
        if urlsplit(url)[:2] != urlsplit(self._base_url)[:2]:
            # The token goes with every request: never to another host than the API's.
            raise DomainError(
                ErrorCode.FETCH_FAILED, f"{self._service} sent a next page on another host."
            )
        return self._send("GET", url)

    def _url(self, path: str) -> str:
        return path if path.startswith(("http://", "https://")) else self._base_url + path

    def _send(self, method: str, url: str, **kwargs: Any) -> requests.Response:
        attempts = max(0, int(settings.CONNECTOR_MAX_RETRIES)) + 1
        for attempt in range(attempts):
            last = attempt == attempts - 1
            try:
                response = self._session.request(method, url, timeout=_TIMEOUT_SECONDS, **kwargs)
            except requests.RequestException as exc:
                logger.info("%s %s failed: %s", method, url, type(exc).__name__)
                if last:
                    raise self._unreachable() from None
                self._sleep(_BACKOFF_SECONDS * 2**attempt)
                continue
            wait = _rate_limit_wait(response)
            if wait is not None or response.status_code >= 500:
                logger.info("%s %s answered %s", method, url, response.status_code)
                if last:
                    raise self._unreachable() from None
                self._sleep(wait if wait is not None else _BACKOFF_SECONDS * 2**attempt)
                continue
            self._raise_for_status(response)
            return response
        raise self._unreachable()  # not reached: the last attempt returns or raises

    def _unreachable(self) -> TransientError:
        return TransientError(
            ErrorCode.FETCH_FAILED,
            f"{self._service} is busy or unreachable (rate limited or failing); will retry.",
        )

    def _raise_for_status(self, response: requests.Response) -> None:
        status = response.status_code
        if status < 400:
            return
        if status == 401:
            raise DomainError(
                ErrorCode.FETCH_FAILED,
                f"{self._service} refused the token (401). Replace it with a valid one.",
            )
        if status in (403, 404, 410):
            raise DomainError(
                ErrorCode.REPO_NOT_FOUND,
                f"{self._service} says {self._subject} was not found or is not readable with "
                f"this token ({status}). Check the link and the token's permissions.",
            )
        detail = _detail(response)
        raise DomainError(
            ErrorCode.FETCH_FAILED,
            f"{self._service} refused the request ({status}){': ' + detail if detail else '.'}",
        )


def _detail(response: requests.Response) -> str:
    """What the far end said was wrong (Atlassian's `errorMessages`, else a `message`), short."""
    try:
        body = response.json()
    except ValueError:
        return ""
    if not isinstance(body, dict):
        return ""
    messages = body.get("errorMessages") or [body.get("message") or ""]
    if not isinstance(messages, list):
        return ""
    return "; ".join(str(message) for message in messages if message)[:200]


def _rate_limit_wait(response: requests.Response) -> float | None:
    """Seconds to wait before asking again, or None when this is no rate limit."""
    status = response.status_code
    retry_after = response.headers.get("Retry-After", "")
    exhausted = response.headers.get("X-RateLimit-Remaining") == "0"
    if status != 429 and not (status == 403 and (retry_after or exhausted)):
        return None
    cap = float(settings.CONNECTOR_RETRY_AFTER_MAX_SECONDS)
    if retry_after.strip().isdigit():
        return min(float(retry_after), cap)
    reset = response.headers.get("X-RateLimit-Reset", "")
    if reset.isdigit():
        return min(max(0.0, float(reset) - time.time()), cap)
    return min(60.0, cap)

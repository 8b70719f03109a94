"""The Firecrawl SDK's HTTP client, with each reply read up to a size cap.

The SDK reads every reply whole (`requests.get(...)` without streaming), so a reply that never
ends (a broken proxy, a misbehaving self-hosted instance) grows in the worker's memory until it
dies: a read timeout only fires when the bytes stop. This client sends the same requests,
with the same retries (502 and connection errors, with backoff), but reads each reply in pieces
and gives up past RESPONSE_MAX_BYTES. It replaces the SDK client's own (`install`).
"""

import time
from typing import Any

import requests
from firecrawl import Firecrawl
from firecrawl.v2.utils.http_client import HttpClient

from openguru.sources.loaders.requests_capped import response_read_capped

# A page of crawl results holds a few documents of markdown; 50 MB is far above any real one.
RESPONSE_MAX_BYTES = 50 * 1024 * 1024


class CappedHttpClient(HttpClient):
    def post(
        self, endpoint: str, data: dict[str, Any], headers: dict[str, str] | None = None,
        timeout: float | None = None, retries: int | None = None,
        backoff_factor: float | None = None,
    ) -> requests.Response:  # fmt: skip
        payload = dict(data)
        payload["origin"] = payload.get("origin") or self.origin
        return self._send("POST", endpoint, headers, timeout, retries, backoff_factor, payload)

    def get(
        self, endpoint: str, headers: dict[str, str] | None = None,
        timeout: float | None = None, retries: int | None = None,
        backoff_factor: float | None = None,
    ) -> requests.Response:  # fmt: skip
        return self._send("GET", endpoint, headers, timeout, retries, backoff_factor)

    def delete(
        self, endpoint: str, headers: dict[str, str] | None = None,
        timeout: float | None = None, retries: int | None = None,
        backoff_factor: float | None = None,
    ) -> requests.Response:  # fmt: skip
        return self._send("DELETE", endpoint, headers, timeout, retries, backoff_factor)

    def _send(
        self,
        method: str,
        endpoint: str,
        headers: dict[str, str] | None,
        timeout: float | None,
        retries: int | None,
        backoff_factor: float | None,
        payload: dict[str, Any] | None = None,
    ) -> requests.Response:
        attempts = max(1, self.max_retries if retries is None else retries)
        backoff = self.backoff_factor if backoff_factor is None else backoff_factor
        for attempt in range(attempts):
            last = attempt == attempts - 1
            try:
                response = requests.request(
                    method,
                    self._build_url(endpoint),
                    headers=self._prepare_headers() if headers is None else headers,
                    json=payload,
                    timeout=self.timeout if timeout is None else timeout,
                    stream=True,
                )
                read_capped(response)
            except requests.RequestException:
                if last:
                    raise
            else:
                if response.status_code != 502 or last:
                    return response
            time.sleep(backoff * (2**attempt))
        raise AssertionError("unreachable: the last attempt returns or raises")


def read_capped(response: requests.Response) -> None:
    limit_mb = RESPONSE_MAX_BYTES // (1024 * 1024)
    response_read_capped(
        response,
        max_bytes=RESPONSE_MAX_BYTES,
        too_large=f"Firecrawl sent a reply larger than {limit_mb} MB; it was not read.",
    )


def install(client: Firecrawl) -> Firecrawl:
    """Give the SDK client (v2 API) this HTTP client, with its settings."""
    v2 = client._v2_client
    sdk = v2.http_client
    v2.http_client = CappedHttpClient(
        sdk.api_key,
        sdk.api_url,
        timeout=sdk.timeout,
        max_retries=sdk.max_retries,
        backoff_factor=sdk.backoff_factor,
        origin=sdk.origin,
    )
    return client

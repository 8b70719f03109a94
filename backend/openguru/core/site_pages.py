"""The UI serves public question pages from Next's cache (`frontend/lib/site/cache.ts`). A
service that changes what such a page shows names the page, or its guru (every page of it), and
once its transaction commits a `light`-queue task asks each of the UI's servers to drop them
(`POST <UI_INTERNAL_URL>/api/revalidate` with `UI_REVALIDATE_SECRET`). A request that fails is
logged, never raised: the change stands, and the UI renders a page again after a few minutes
anyway. Without a secret nothing is sent."""

import ipaddress
import logging
import socket
from collections.abc import Iterable
from functools import partial
from urllib.parse import quote, urlsplit

import httpx
from django.conf import settings
from django.db import transaction
from kombu.exceptions import OperationalError

from openguru.core.queues import LIGHT_QUEUE
from openguru.core.task_send import task_send

logger = logging.getLogger(__name__)

REVALIDATE_TASK = "openguru.core.tasks.site_pages_revalidate_task"
# Items per request: the UI's route refuses more than 1,000 in one.
BATCH = 500
TIMEOUT_SECONDS = 5.0


def question_page_path(*, guru_slug: str, question_slug: str) -> str:
    """The public page of an answer outside any follow-up session."""
    return f"/g/{quote(guru_slug, safe='')}/{quote(question_slug, safe='')}"


def site_pages_revalidate(*, paths: Iterable[str] = (), gurus: Iterable[str] = ()) -> None:
    """Have the UI drop these cached pages (and every page of these gurus) after the commit."""
    if not settings.UI_REVALIDATE_SECRET:
        return
    items = [("path", p) for p in sorted(set(paths))] + [("guru", g) for g in sorted(set(gurus))]
    for start in range(0, len(items), BATCH):
        batch = items[start : start + BATCH]
        page_paths = [value for kind, value in batch if kind == "path"]
        guru_slugs = [value for kind, value in batch if kind == "guru"]
        transaction.on_commit(partial(_send, page_paths, guru_slugs))


def _send(paths: list[str], gurus: list[str]) -> None:
    try:
        task_send(REVALIDATE_TASK, paths, gurus, queue=LIGHT_QUEUE)
    except OperationalError:  # the broker is down: the UI's timed refresh catches up
        logger.warning("the broker is unreachable; %d cached pages not dropped", len(paths))


def site_pages_post(*, paths: list[str], gurus: list[str]) -> bool:
    """The request itself (the task's work), to every UI server: whether all dropped them."""
    body = {"paths": paths, "gurus": gurus}
    headers = {"Authorization": f"Bearer {settings.UI_REVALIDATE_SECRET}"}
    sent = True
    for url, host in _ui_servers(f"{settings.UI_INTERNAL_URL}/api/revalidate"):
        try:
            response = httpx.post(
                url, json=body, headers={**headers, **host}, timeout=TIMEOUT_SECONDS
            )
            response.raise_for_status()
        except httpx.HTTPError as exc:
            logger.warning(
                "the UI's server (%s) did not drop %d cached pages and %d gurus' pages: %s",
                url, len(paths), len(gurus), exc or type(exc).__name__,
            )  # fmt: skip
            sent = False
    return sent


def _ui_servers(url: str) -> list[tuple[str, dict[str, str]]]:
    """Each UI server keeps its own cache, so a plain-HTTP name that resolves to several
    addresses (Kubernetes' headless Service, compose's replicas) is asked at each of them, with
    the name as Host. One request to the URL itself otherwise: HTTPS, an address, loopback."""
    parts = urlsplit(url)
    if parts.scheme != "http" or not parts.hostname:
        return [(url, {})]
    port = parts.port or 80
    try:
        infos = socket.getaddrinfo(parts.hostname, port, type=socket.SOCK_STREAM)
    except OSError:
        return [(url, {})]  # the request then fails and says why
    addresses = sorted({str(info[4][0]) for info in infos})
    if len(addresses) < 2 or all(ipaddress.ip_address(a).is_loopback for a in addresses):
        return [(url, {})]
    host = {"Host": parts.netloc}
    return [
        (parts._replace(netloc=f"{_bracketed(address)}:{port}").geturl(), host)
        for address in addresses
    ]


def _bracketed(address: str) -> str:
    return f"[{address}]" if ":" in address else address

"""A Zendesk Help Center's articles as a connector (`connectors/base.py`).

Every sync lists the articles of one locale (the whole help center, or the sections named) with
Zendesk's cursor pagination (`page[size]`, `meta.has_more`, `links.next`). The listing carries
each article's `updated_at` and its HTML body, so it is at once the cursor (an article whose
updated_at did not move is neither fetched nor embedded again) and the way deletions are seen:
an article deleted, archived or turned back into a draft is no longer listed as published, and
the indexing run deletes its chunks. The incremental export endpoint is not used: it answers
only agents (public help centers are read without credentials), and it reports changed articles
but not deleted or archived ones, so the listing would still be needed, and it already holds
everything the export would add.

An article is one HTML document linked to its `html_url`; the HTML chunker splits it at its
headings and links each chunk to the heading's id (Zendesk's editor gives headings one).

`article_id` limits a source to one article (Gurubase's single-article URLs): its link is the
article's, so it can sit beside the help center's own source.

Credentials: an API token with the agent's email in `options.email` (basic auth,
`{email}/token:{token}`), or an OAuth access token alone (bearer). None for a public help center.
"""

import base64
import re
from collections.abc import Iterator, Mapping, Sequence
from typing import Any
from urllib.parse import quote, urlsplit

from django.conf import settings

from openguru.core.errors import DomainError, ErrorCode
from openguru.sources.connectors.base import Item
from openguru.sources.connectors.http import ApiClient
from openguru.sources.loaders.base import Document, LoadRequest

PAGE_SIZE = 100  # the most Zendesk's cursor pagination gives a page
_SUBDOMAIN = re.compile(r"^[a-z0-9][a-z0-9-]{0,62}$")
_LOCALE = re.compile(r"^[a-z]{2,3}(-[a-z0-9]{2,8})*$")
_EMAIL = re.compile(r"^[^@\s/:]+@[^@\s/:]+$")
_LOOPBACK_HOSTS = ("127.0.0.1", "localhost", "::1")
_WHERE = "Enter the help center's Zendesk subdomain (acme) or https://acme.zendesk.com."


def help_center_of(value: str) -> str:
    """The API base of a help center: `acme` or `https://acme.zendesk.com[/hc/...]` →
    `https://acme.zendesk.com`. Only Zendesk's own hosts are read (the address is chosen by an
    admin and the worker sends the token there); a loopback one only where loopback crawling
    is allowed (a developer's stand-in)."""
    value = value.strip().lower().rstrip("/")
    if _SUBDOMAIN.match(value):
        return f"https://{value}.zendesk.com"
    parts = urlsplit(value)
    host = parts.hostname or ""
    subdomain = host.removesuffix(".zendesk.com") if host.endswith(".zendesk.com") else ""
    if parts.scheme == "https" and _SUBDOMAIN.match(subdomain) and not parts.port:
        return f"https://{host}"
    loopback = settings.CRAWLER_ALLOW_LOOPBACK and host in _LOOPBACK_HOSTS
    if loopback and parts.scheme in ("http", "https"):
        return f"{parts.scheme}://{parts.netloc}"
    raise DomainError(ErrorCode.INVALID_INPUT, _WHERE)


def options_checked(options: Mapping[str, Any]) -> dict[str, Any]:
    """The options as the connector reads them; a refusal names the one that is wrong."""
    locale = str(options.get("locale") or "en-us").strip().lower()
    if not _LOCALE.match(locale):
        raise DomainError(ErrorCode.INVALID_INPUT, "locale is a help center locale: en-us, de.")
    sections = options.get("section_ids") or []
    if isinstance(sections, str | int):
        sections = [part.strip() for part in str(sections).split(",")]
    if not isinstance(sections, list) or not all(str(s).strip().isdigit() for s in sections if s):
        raise DomainError(ErrorCode.INVALID_INPUT, "section_ids is a list of section ids.")
    email = str(options.get("email") or "").strip()
    if email and not _EMAIL.match(email):
        raise DomainError(ErrorCode.INVALID_INPUT, "email is the agent's email address.")
    article = str(options.get("article_id") or "").strip()
    if article and not article.isdigit():
        raise DomainError(ErrorCode.INVALID_INPUT, "article_id is an article's number.")
    checked: dict[str, Any] = {
        "locale": locale,
        "section_ids": [int(s) for s in sections if str(s).strip()],
        "email": email,
    }
    return {**checked, "article_id": int(article)} if article else checked


def zendesk_source_checked(url: str, options: Mapping[str, Any]) -> tuple[str, dict[str, Any]]:
    """The source's link (the help center's, or its one article's) and its checked options."""
    checked = options_checked(options)
    base = help_center_of(url)
    if "article_id" not in checked:
        return base, checked
    return f"{base}/hc/{checked['locale']}/articles/{checked['article_id']}", checked


def auth_headers(*, email: str, token: str) -> dict[str, str]:
    """Basic `{email}/token:{token}` with an email (an API token), else a bearer token (OAuth)."""
    if not token:
        return {}
    if email:
        pair = base64.b64encode(f"{email}/token:{token}".encode()).decode()
        return {"Authorization": f"Basic {pair}"}
    return {"Authorization": f"Bearer {token}"}


class ZendeskConnector:
    def __init__(self, request: LoadRequest) -> None:
        base = help_center_of(request.url)
        self._options = options_checked(request.options)
        self._private = request.private
        headers = {"Accept": "application/json", "User-Agent": "OpenGuru"}
        headers.update(auth_headers(email=self._options["email"], token=request.credential))
        self._api = ApiClient(
            base_url=base, headers=headers, service="Zendesk", subject="the help center"
        )
        self._listed: dict[str, dict[str, Any]] = {}

    def list_items(self) -> Iterator[Item]:
        only = self._options.get("article_id")
        for article in self._articles():
            if article.get("draft") or only not in (
                None,
                article["id"],
            ):  # an agent sees drafts too; readers do not
                continue
            key = f"article:{article['id']}"
            self._listed[key] = article
            yield Item(key=key, version=str(article["updated_at"]), link=article["html_url"])

    def fetch(self, item: Item) -> Sequence[Document]:
        article = self._listed[item.key]
        metadata = {
            "kind": "article",
            "article_id": article["id"],
            "section_id": article.get("section_id"),
            "locale": article.get("locale", self._options["locale"]),
            "labels": list(article.get("label_names") or []),
        }
        return [
            Document(
                title=str(article.get("title") or article.get("name") or ""),
                link="" if self._private else str(article["html_url"]),
                text=str(article.get("body") or ""),
                format="html",
                metadata=metadata,
            )
        ]

    def _articles(self) -> Iterator[dict[str, Any]]:
        locale = quote(self._options["locale"], safe="")
        paths = [
            f"/api/v2/help_center/{locale}/sections/{section}/articles"
            for section in self._options["section_ids"]
        ] or [f"/api/v2/help_center/{locale}/articles"]
        seen: set[int] = set()
        for path in paths:
            response = self._api.get(path, {"page[size]": PAGE_SIZE})
            while True:
                page = response.json()
                for article in page.get("articles") or []:
                    if article["id"] not in seen:  # a cursor page may repeat an edited one
                        seen.add(article["id"])
                        yield article
                following = (page.get("links") or {}).get("next")
                if not (page.get("meta") or {}).get("has_more") or not following:
                    break
                response = self._api.follow(str(following))

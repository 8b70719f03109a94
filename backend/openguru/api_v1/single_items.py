"""Gurubase's `jira_urls` and `zendesk_urls`: one issue or article by its URL. Each becomes a
source of its connector limited to that item (Jira: the JQL `key = OPS-12`; Zendesk: the
`article_id` option), read with the credentials of a source the guru already has on that site,
so a token is given once per site, as Gurubase's one integration per site did."""

import re
from typing import Any
from urllib.parse import urlsplit

from openguru.core.crypto import secret_decrypt
from openguru.core.errors import DomainError, ErrorCode
from openguru.gurus.models import Guru
from openguru.sources.connectors.zendesk import help_center_of
from openguru.sources.models import DataSource
from openguru.sources.selectors import source_of_site

_JIRA_ISSUE = re.compile(r"^(?P<prefix>.*?)/browse/(?P<key>[A-Za-z][A-Za-z0-9_]*-\d+)/?$")
_ZENDESK_ARTICLE = re.compile(
    r"^/hc/(?:(?P<locale>[a-z]{2,3}(?:-[a-z0-9]{2,8})*)/)?articles/(?P<id>\d+)"
)
_NAMES = {DataSource.Type.JIRA: "Jira", DataSource.Type.ZENDESK: "Zendesk"}


def single_item_source(*, guru: Guru, type: str, url: str) -> tuple[str, dict[str, Any], str]:
    """The site, options and token of a connector source that reads just the item at `url`,
    with the site's credentials; refused for a URL of no item or a site with no source."""
    if type == DataSource.Type.JIRA:
        site, options = _jira_issue(url)
    else:
        site, options = _zendesk_article(url)
    donor = source_of_site(guru=guru, type=type, site=site)
    if donor is None:
        name = _NAMES[DataSource.Type(type)]
        raise DomainError(
            ErrorCode.SITE_NOT_CONNECTED,
            f"Add a {name} source with credentials for {urlsplit(site).netloc} first: "
            f"its {name} URLs are read with them.",
        )
    shared = {
        key: donor.options[key] for key in ("deployment", "email", "locale") if key in donor.options
    }
    return site, {**shared, **options}, secret_decrypt(donor.credential)


def _jira_issue(url: str) -> tuple[str, dict[str, Any]]:
    parts = urlsplit(url.strip())
    match = _JIRA_ISSUE.match(parts.path)
    if parts.scheme not in ("http", "https") or not parts.netloc or not match:
        raise DomainError(
            ErrorCode.INVALID_INPUT,
            "Enter a Jira issue's URL, such as https://acme.atlassian.net/browse/OPS-12.",
        )
    site = f"{parts.scheme}://{parts.netloc}{match['prefix'].rstrip('/')}"
    return site, {"jql": f"key = {match['key'].upper()}"}


def _zendesk_article(url: str) -> tuple[str, dict[str, Any]]:
    parts = urlsplit(url.strip())
    match = _ZENDESK_ARTICLE.match(parts.path.lower())
    if not match:
        raise DomainError(
            ErrorCode.INVALID_INPUT,
            "Enter a help center article's URL, such as "
            "https://acme.zendesk.com/hc/en-us/articles/360001234-Title.",
        )
    options: dict[str, Any] = {"article_id": int(match["id"])}
    if match["locale"]:
        options["locale"] = match["locale"]
    return help_center_of(url), options

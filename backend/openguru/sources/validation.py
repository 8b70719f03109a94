"""Checks on what an admin submits, before anything is stored or queued."""

import re
from typing import Any
from urllib.parse import urlparse

from django.conf import settings
from django.core.files.uploadedfile import UploadedFile

from openguru.core.errors import DomainError, ErrorCode
from openguru.sources.connectors import zendesk
from openguru.sources.connectors.confluence import source_checked
from openguru.sources.connectors.github_issues import options_checked, repository_of
from openguru.sources.connectors.jira import jira_source_checked
from openguru.sources.file_kinds import UPLOADABLE, FileKind, file_kind_for_name, file_kind_for_type
from openguru.sources.loaders.ssrf import check_url
from openguru.sources.models import DataSource

_YOUTUBE = re.compile(r"^(www\.|m\.)?(youtube\.com|youtu\.be)$")


def _require_http_url(url: str) -> str:
    parsed = urlparse(url.strip())
    if parsed.scheme not in ("http", "https") or not parsed.netloc:
        raise DomainError(ErrorCode.INVALID_INPUT, "Enter a full http(s) URL.")
    return url.strip()


def _require_repo_url(url: str) -> str:
    parsed = urlparse(url.strip())
    if parsed.scheme == "file" and settings.CRAWLER_ALLOW_LOOPBACK:
        return url.strip()
    if parsed.scheme not in ("http", "https") or not parsed.netloc:
        raise DomainError(ErrorCode.INVALID_INPUT, "Enter the repository's https URL.")
    return url.strip().removesuffix("/")


def validate_source_input(*, type: str, url: str, content: str, crawl_mode: str) -> str:
    """Return the normalized URL, or raise a user-readable INVALID_INPUT."""
    if type not in DataSource.Type.values:
        raise DomainError(ErrorCode.INVALID_INPUT, f"Unknown source type '{type}'.")
    if crawl_mode not in DataSource.CrawlMode.values:
        raise DomainError(ErrorCode.INVALID_INPUT, f"Unknown crawl mode '{crawl_mode}'.")
    if type in (DataSource.Type.TEXT, DataSource.Type.FAQ):
        if not content.strip():
            raise DomainError(ErrorCode.INVALID_INPUT, "A text or FAQ source needs content.")
        if len(content.encode()) > settings.SOURCE_TEXT_MAX_BYTES:
            raise DomainError(ErrorCode.FILE_TOO_LARGE, "This text is too large.")
        return url.strip()
    if kind := file_kind_for_type(type):
        raise DomainError(ErrorCode.INVALID_INPUT, f"Upload the {kind.label} as a file.")
    if type == DataSource.Type.GITHUB_REPO:
        return _require_repo_url(url)
    if type == DataSource.Type.GITHUB_ISSUES:
        owner, name = repository_of(url)
        return f"https://github.com/{owner}/{name}"
    if type == DataSource.Type.ZENDESK:
        return zendesk.help_center_of(url)
    checked = _require_http_url(url)
    if type == DataSource.Type.CONFLUENCE:
        _refuse_private_address(checked)  # the link is the site; space and page are options
        return checked
    if type == DataSource.Type.YOUTUBE and not _YOUTUBE.match(urlparse(checked).netloc):
        raise DomainError(
            ErrorCode.INVALID_INPUT, "Enter a YouTube video, playlist or channel URL."
        )
    if type in (DataSource.Type.WEBSITE, DataSource.Type.JIRA):
        _refuse_private_address(checked)
    return checked


def _refuse_private_address(url: str) -> None:
    """Say now, not at crawl time, that a site on a private or loopback address is refused. A
    host that does not resolve yet is left to the crawler: DNS may be down for a moment."""
    try:
        check_url(url)
    except DomainError as exc:
        if exc.code != ErrorCode.FETCH_FAILED:
            raise


def validate_upload(upload: UploadedFile) -> FileKind:
    """The kind of file `upload` is (by its extension), or a user-readable refusal."""
    kind = file_kind_for_name(str(upload.name or ""))
    if kind is None:
        raise DomainError(ErrorCode.INVALID_FILE, f"Only {UPLOADABLE} files can be uploaded.")
    pdf = kind.type == DataSource.Type.PDF
    limit = settings.PDF_MAX_BYTES if pdf else settings.FILE_MAX_BYTES
    if upload.size is not None and upload.size > limit:
        limit_mb = limit / (1024 * 1024)  # not floored: 1.5 MB is not "1 MB"
        what = "PDFs" if pdf else "Files"
        raise DomainError(ErrorCode.FILE_TOO_LARGE, f"{what} may be at most {limit_mb:g} MB.")
    return kind


def validate_source_options(
    *, type: str, url: str, options: dict[str, Any], token: str = ""
) -> tuple[str, dict[str, Any]]:
    """A connector's link and options as it reads them (a wrong one refused now, not at sync
    time). A link may be made from the options: a Confluence source's becomes its space's or
    root page's own, a Jira source's the issue navigator of its JQL (so one site can be several
    sources); Jira's options are checked against its token."""
    if type == DataSource.Type.GITHUB_ISSUES:
        return url, options_checked(options)
    if type == DataSource.Type.CONFLUENCE:
        return source_checked(url, options)
    if type == DataSource.Type.JIRA:
        return jira_source_checked(url=url, options=options, token=token)
    if type == DataSource.Type.ZENDESK:
        return zendesk.zendesk_source_checked(url, options)
    return url, options

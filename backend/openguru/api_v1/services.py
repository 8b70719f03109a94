"""Gurubase's batch form of adding sources: one result per item, each created (or refused) on
its own through the sources services, so one bad URL never loses the others."""

from collections.abc import Callable, Iterable
from dataclasses import dataclass, field, replace
from typing import Any

from django.core.files.uploadedfile import UploadedFile

from openguru.api_v1.gurubase import SOURCE_TYPES
from openguru.api_v1.single_items import single_item_source
from openguru.core.errors import DomainError, ErrorCode
from openguru.gurus.models import Guru
from openguru.sources.models import DataSource
from openguru.sources.services import source_create, source_create_upload
from openguru.sources.validation import (
    validate_source_input,
    validate_source_options,
    validate_upload,
)


@dataclass(frozen=True)
class NewSource:
    type: str
    url: str = ""
    title: str = ""
    content: str = ""
    version: str = ""  # the documentation version ("": every version)
    options: dict[str, Any] = field(default_factory=dict)  # a connector's (TOKEN_TYPES)
    token: str = ""  # a connector's credential: stored encrypted, never sent back
    single: bool = False  # a Jira issue's or Zendesk article's URL (`single_items.py`)
    asked: str = ""  # the URL as sent, when the source's own link differs


def _result(kind: str, url: str, **fields: Any) -> dict[str, Any]:
    return {"type": SOURCE_TYPES[DataSource.Type(kind)], "url": url, **fields}


def _one(guru: Guru, item: NewSource) -> dict[str, Any]:
    try:
        if item.single:
            site, options, token = single_item_source(guru=guru, type=item.type, url=item.url)
            item = replace(item, url=site, options=options, token=token, asked=item.url)
        source = source_create(
            guru=guru,
            type=item.type,
            url=item.url,
            title=item.title,
            content=item.content,
            version=item.version,
            options=item.options,
            token=item.token,
        )
    except DomainError as exc:
        shown = item.asked or item.url
        if exc.code == ErrorCode.CONFLICT:
            existing = _existing(guru, item)
            return _result(
                item.type,
                shown,
                status="exists",
                id=existing.pk if existing else None,
                title=existing.title if existing else item.title,
                message=exc.msg,
            )
        return _result(
            item.type, shown, status="error", id=None, title="", code=exc.code, message=exc.msg
        )
    shown = item.asked or source.url
    return _result(item.type, shown, status="success", id=source.pk, title=source.title)


def _existing(guru: Guru, item: NewSource) -> DataSource | None:
    """The source a duplicate was refused for, found by the link it would have had (a Jira
    source's is made from its JQL, a Zendesk article's from its id)."""
    try:
        url = validate_source_input(type=item.type, url=item.url, content="", crawl_mode="single")
        url, _ = validate_source_options(
            type=item.type, url=url, options=item.options, token=item.token
        )
    except DomainError:
        url = item.url
    return DataSource.objects.filter(guru=guru, url=url.strip()).first()


def sources_add(*, guru: Guru, items: Iterable[NewSource]) -> list[dict[str, Any]]:
    return [_one(guru, item) for item in items]


def sources_upload(*, guru: Guru, files: list[UploadedFile]) -> list[dict[str, Any]]:
    """Every file is checked before any is stored: an over-size file or one of a kind we do not
    read refuses the whole upload (413/400) and nothing is kept."""
    for upload in files:
        validate_upload(upload)
    results = []
    for upload in files:
        source = source_create_upload(guru=guru, upload=upload)
        results.append(
            _result(source.type, source.url, status="success", id=source.pk, title=source.title)
        )
    return results


def sources_each(
    *, guru: Guru, ids: list[int], action: Callable[[DataSource], object]
) -> list[int]:
    """Apply `action` to the guru's sources among `ids`; returns the ids it found."""
    sources = list(DataSource.objects.filter(guru=guru, pk__in=ids))
    if not sources:
        raise DomainError(ErrorCode.SOURCE_NOT_FOUND, "None of these sources are in this guru.")
    found = [source.pk for source in sources]  # before the action: a deleted row has no pk
    for source in sources:
        action(source)
    return found

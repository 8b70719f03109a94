from collections.abc import Iterable
from datetime import datetime, timedelta
from typing import Literal

from django.conf import settings
from django.db.models import Count, Q, QuerySet

from openguru.core.errors import DomainError, ErrorCode
from openguru.gurus.models import Guru
from openguru.sources.loaders.youtube_listing import (
    Collection,
    CollectionKind,
    Listing,
    channel_from_url,
    collection_list,
    playlist_id_from_url,
)
from openguru.sources.models import DataSource


def source_list(*, guru: Guru) -> QuerySet[DataSource]:
    return DataSource.objects.filter(guru=guru)


def source_get(*, guru: Guru, source_id: int) -> DataSource:
    source = DataSource.objects.filter(guru=guru, pk=source_id).first()
    if source is None:
        raise DomainError(ErrorCode.SOURCE_NOT_FOUND, f"No source {source_id} in this guru.")
    return source


def source_file_readable(*, path: str, staff: bool) -> DataSource | None:
    """The source whose uploaded file is at this media path, if this caller may read it.

    None for a missing file and for a private one alike: the answer never tells them apart.
    """
    source = DataSource.objects.filter(file=path).exclude(file="").first()
    if source is None or (source.private and not staff):
        return None
    return source


# A source's type is fixed when it is created and ids are never reused, so each process
# remembers the types it has read: answers find the same sources again and again.
_known_types: dict[int, str] = {}


def source_types(*, source_ids: Iterable[int]) -> dict[int, str]:
    """Each source's type, by id. Reads the database only for ids this process has not seen;
    an id with no source (deleted before it was ever seen) is left out."""
    wanted = set(source_ids)
    unseen = wanted - _known_types.keys()
    if unseen:
        _known_types.update(DataSource.objects.filter(pk__in=unseen).values_list("pk", "type"))
    return {pk: _known_types[pk] for pk in wanted if pk in _known_types}


ReadingState = Literal["indexed", "reading", "empty", "unreadable"]


def guru_reading_state(*, guru: Guru) -> ReadingState:
    """Whether the guru has anything to answer from: a source indexed at least once, sources
    still waiting or being read, no source at all, or only sources that failed. One query."""
    counts = DataSource.objects.filter(guru=guru).aggregate(
        total=Count("pk"),
        indexed=Count("pk", filter=Q(last_indexed_at__isnull=False)),
        pending=Count(
            "pk",
            filter=Q(status__in=[DataSource.Status.NOT_PROCESSED, DataSource.Status.PROCESSING]),
        ),
    )
    if counts["indexed"]:
        return "indexed"
    if counts["pending"]:
        return "reading"
    return "unreadable" if counts["total"] else "empty"


def source_summary_missing(*, source_id: int) -> bool:
    return DataSource.objects.filter(pk=source_id, summary="").exists()


def source_guru_id(*, source_id: int) -> int | None:
    return DataSource.objects.filter(pk=source_id).values_list("guru_id", flat=True).first()


def sources_summary_missing(*, now: datetime) -> list[int]:
    """Indexed sources still without a summary, quiet for a while, indexed a few hours ago at
    most (a source whose summary keeps coming out empty is not sent forever)."""
    missing = DataSource.objects.filter(
        status=DataSource.Status.SUCCESS,
        summary="",
        updated_at__lt=now - timedelta(minutes=settings.SOURCE_SUMMARY_QUIET_MINUTES),
        last_indexed_at__gte=now - timedelta(hours=settings.SOURCE_SUMMARY_RETRY_HOURS),
    )
    return list(missing.values_list("pk", flat=True))


# The paths `loaders/youtube_listing.parse_collection_url` reads as a playlist or a channel.
YOUTUBE_COLLECTION_URL = r"^https?://[^/]*youtube\.com/(playlist\?|channel/|user/|@)"


def sources_resync_due(*, now: datetime) -> list[int]:
    """Indexed sources whose last indexing is older than their period: GitHub repositories
    (code, issues), Confluence spaces and page trees and Jira queries (all on the GitHub period),
    websites, YouTube playlists and channels (a single video does not change: not resynced) and
    Zendesk help centers."""
    github_due = Q(
        type__in=[
            DataSource.Type.GITHUB_REPO,
            DataSource.Type.GITHUB_ISSUES,
            DataSource.Type.CONFLUENCE,
            DataSource.Type.JIRA,
        ],
        last_indexed_at__lt=now - timedelta(hours=settings.GITHUB_RESYNC_HOURS),
    )
    website_due = Q(
        type=DataSource.Type.WEBSITE,
        last_indexed_at__lt=now - timedelta(hours=settings.WEBSITE_RECRAWL_HOURS),
    )
    youtube_due = Q(
        type=DataSource.Type.YOUTUBE,
        url__regex=YOUTUBE_COLLECTION_URL,
        last_indexed_at__lt=now - timedelta(hours=settings.YOUTUBE_RESYNC_HOURS),
    )
    zendesk_due = Q(
        type=DataSource.Type.ZENDESK,
        last_indexed_at__lt=now - timedelta(hours=settings.ZENDESK_RESYNC_HOURS),
    )
    due = DataSource.objects.filter(
        github_due | website_due | youtube_due | zendesk_due, status=DataSource.Status.SUCCESS
    )
    return list(due.values_list("pk", flat=True))


def source_by_id(*, source_id: int) -> DataSource | None:
    """A source and its guru, as a task that was handed its id finds it (None once deleted)."""
    return DataSource.objects.select_related("guru").filter(pk=source_id).first()


def youtube_collection_videos(*, url: str, kind: CollectionKind) -> Listing:
    """The videos of the playlist or channel at `url`, as YouTube lists them now."""
    if kind == "playlist":
        return collection_list(Collection("playlist", playlist_id_from_url(url)))
    return collection_list(channel_from_url(url))


def source_of_site(*, guru: Guru, type: str, site: str) -> DataSource | None:
    """A connector source of the guru on this site (a Jira base URL, a Zendesk help center),
    one with a token first: single items on the site are read with its credentials."""
    if type == DataSource.Type.JIRA:
        on_site = Q(options__base_url=site)
    else:
        on_site = Q(url=site) | Q(url__startswith=f"{site}/")
    sources = DataSource.objects.filter(on_site, guru=guru, type=type)
    return sources.exclude(credential="").order_by("pk").first() or sources.order_by("pk").first()

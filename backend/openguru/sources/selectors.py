from collections.abc import Iterable
from typing import Literal

from django.db.models import Count, Q, QuerySet

from openguru.core.errors import DomainError, ErrorCode
from openguru.gurus.models import Guru
from openguru.sources.models import DataSource


def source_list(*, guru: Guru) -> QuerySet[DataSource]:
    return DataSource.objects.filter(guru=guru)


def source_get(*, guru: Guru, source_id: int) -> DataSource:
    source = DataSource.objects.filter(guru=guru, pk=source_id).first()
    if source is None:
        raise DomainError(ErrorCode.SOURCE_NOT_FOUND, f"No source {source_id} in this guru.")
    return source


def source_types(*, source_ids: Iterable[int]) -> dict[int, str]:
    """Each existing source's type, by id (a source deleted meanwhile is simply absent)."""
    return dict(DataSource.objects.filter(pk__in=set(source_ids)).values_list("pk", "type"))


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

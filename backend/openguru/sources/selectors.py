from collections.abc import Iterable

from django.db.models import QuerySet

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

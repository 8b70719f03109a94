from django.db.models import QuerySet

from openguru.core.errors import DomainError, ErrorCode
from openguru.gurus.models import Guru


def guru_list(*, active_only: bool = False) -> QuerySet[Guru]:
    gurus = Guru.objects.all()
    return gurus.filter(active=True) if active_only else gurus


def guru_get(*, slug: str, active_only: bool = False) -> Guru:
    guru = guru_list(active_only=active_only).filter(slug=slug).first()
    if guru is None:
        raise DomainError(ErrorCode.GURU_NOT_FOUND, f"No guru named '{slug}'.")
    return guru

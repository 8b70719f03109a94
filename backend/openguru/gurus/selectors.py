from django.db.models import Q, QuerySet

from openguru.core.errors import DomainError, ErrorCode
from openguru.gurus.models import Guru
from openguru.providers.vectorstore.base import VectorStore


def guru_list(*, active_only: bool = False, query: str = "") -> QuerySet[Guru]:
    """All gurus, or those whose name, slug or domain mentions `query`."""
    gurus = Guru.objects.all()
    if query.strip():
        text = query.strip()
        mentions = Q(name__icontains=text) | Q(slug__icontains=text)
        gurus = gurus.filter(mentions | Q(domain_knowledge__icontains=text))
    return gurus.filter(active=True) if active_only else gurus


def guru_get(*, slug: str, active_only: bool = False) -> Guru:
    guru = guru_list(active_only=active_only).filter(slug=slug).first()
    if guru is None:
        raise DomainError(ErrorCode.GURU_NOT_FOUND, f"No guru named '{slug}'.")
    return guru


def guru_bm25_analyzer(*, guru: Guru, store: VectorStore) -> str | None:
    """The BM25 analyzer of the guru's collection; None when it has none yet (its first chunks
    will create one with the configured analyzer)."""
    if not store.has_collection(guru.collection_name):
        return None
    return store.collection_analyzer(guru.collection_name)


def guru_by_id(*, guru_id: int) -> Guru | None:
    return Guru.objects.filter(pk=guru_id).first()

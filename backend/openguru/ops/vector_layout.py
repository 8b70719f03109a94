"""Moving gurus from a Milvus collection each (VECTOR_LAYOUT=per_guru) into the collection their
embedding dimension shares (VECTOR_LAYOUT=shared), while they keep answering: copy, switch, drop."""

from django.db import transaction

from openguru.core.audit.services import audit_record
from openguru.core.errors import DomainError, ErrorCode
from openguru.gurus.models import Guru
from openguru.providers.vectorstore.base import LayoutMigration
from openguru.sources.claims import guru_has_live_claim


def guru_vector_layout_migrate(*, guru: Guru, store: LayoutMigration) -> int | None:
    """Copy the guru's chunks into the shared collection and switch its reads and writes there;
    its own collection is left for `guru_own_collection_drop` once in-flight reads are done.

    None when there is nothing to move (moved already, or no collection yet). The guru's row
    stays locked during the copy, so no source of it starts processing (and writes to the old
    collection) meanwhile; one being processed now makes it a CONFLICT: run again after it.
    The collection name stays the same, so questions, citations and chunk ids are untouched.
    """
    with transaction.atomic():
        locked = Guru.objects.select_for_update().get(pk=guru.pk)
        if store.collection_layout(locked.collection_name) != "per_guru":
            return None
        if guru_has_live_claim(guru_id=locked.pk):
            raise DomainError(
                ErrorCode.CONFLICT,
                f"A source of '{locked.slug}' is being processed; try again when it is done.",
            )
        moved = store.adopt_collection(locked.collection_name)
        audit_record(
            action="guru.vector_layout",
            target=locked,
            target_label=locked.slug,
            guru=locked,
            after={"vector_layout": "shared"},
        )
    return moved


def guru_own_collection_drop(*, guru: Guru, store: LayoutMigration) -> None:
    store.drop_own_collection(guru.collection_name)

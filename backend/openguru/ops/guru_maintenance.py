"""Moving a whole guru to the configured embedding model or BM25 analyzer: a new collection, and
every layer that holds something of the old one (sources, saved questions' vectors) follows."""

from django.db import transaction

from openguru.answers.models import Question
from openguru.core.audit.services import audit_record
from openguru.core.errors import DomainError, ErrorCode
from openguru.gurus.models import Guru
from openguru.gurus.selectors import guru_bm25_analyzer
from openguru.providers.embeddings.base import Embedder
from openguru.providers.vectorstore.base import VectorStore
from openguru.providers.vectorstore.naming import collection_name_for
from openguru.sources.claims import guru_has_live_claim
from openguru.sources.services import sources_reindex_guru


def guru_reembed(*, guru: Guru, embedder: Embedder, store: VectorStore) -> int:
    """Move the guru to the configured embedding model: a new collection, every source re-indexed.

    Vectors of two models cannot share a collection, so the old one is dropped once the switch
    is committed; answers come back source by source as the re-index proceeds.
    Returns how many sources were queued.
    """
    old_collection = guru.collection_name
    guru.embedding_model = embedder.model_name
    guru.embedding_dimension = embedder.dimension
    guru.collection_name = collection_name_for(guru.slug)
    guru.save(update_fields=["embedding_model", "embedding_dimension", "collection_name"])
    store.create_collection(guru.collection_name, dimension=guru.embedding_dimension)
    transaction.on_commit(lambda: store.drop_collection(old_collection))
    # Saved questions' vectors come from the old model: near-duplicate lookups must not compare
    # new questions with them (a different dimension even made every answer fail).
    Question.objects.filter(guru=guru).update(vector=None)
    guru.sources.update(fetch_state={})  # nothing is "unchanged" for a new model
    audit_record(
        action="guru.reembed",
        target=guru,
        target_label=guru.slug,
        guru=guru,
        after={"embedding_model": guru.embedding_model},
    )
    return sources_reindex_guru(guru=guru)


def guru_reanalyze(*, guru: Guru, store: VectorStore) -> bool:
    """Move the guru's chunks to a collection with the configured BM25 analyzer.

    A collection keeps the analyzer it was created with; this copies the chunks, vectors as
    they are (nothing is embedded again), into a new collection whose BM25 terms follow
    MILVUS_BM25_ANALYZER, then switches the guru to it and drops the old one on commit.
    False when there is nothing to move: the guru is on the configured analyzer already, or
    has no collection yet (its first chunks will create one with it). The guru's row stays locked
    during the copy, so no source of it starts processing (and writes to the old collection)
    meanwhile; one that is being processed now makes it a CONFLICT: try again when it is done.
    """
    with transaction.atomic():
        locked = Guru.objects.select_for_update().get(pk=guru.pk)
        old_collection = guru.collection_name = locked.collection_name
        if guru_bm25_analyzer(guru=locked, store=store) in (None, store.bm25_analyzer):
            return False
        if guru_has_live_claim(guru_id=locked.pk):
            raise DomainError(
                ErrorCode.CONFLICT,
                f"A source of '{locked.slug}' is being processed; try again when it is done.",
            )
        new_collection = collection_name_for(locked.slug)
        store.copy_collection(old_collection, new_collection)
        try:
            locked.collection_name = new_collection
            locked.save(update_fields=["collection_name", "updated_at"])
        except BaseException:
            store.drop_collection(new_collection)
            raise
        transaction.on_commit(lambda: store.drop_collection(old_collection))
        audit_record(
            action="guru.reanalyze",
            target=locked,
            target_label=locked.slug,
            guru=locked,
            after={"bm25_analyzer": store.bm25_analyzer},
        )
    guru.collection_name = new_collection
    return True

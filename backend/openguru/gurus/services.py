from typing import Any

from django.db import IntegrityError, transaction

from openguru.core.audit.services import audit_fields, audit_record
from openguru.core.errors import DomainError, ErrorCode
from openguru.core.site_pages import site_pages_revalidate
from openguru.gurus.models import Guru, answers_epoch_new
from openguru.providers.embeddings.base import Embedder
from openguru.providers.vectorstore.base import VectorStore
from openguru.providers.vectorstore.naming import collection_name_for

EDITABLE_FIELDS = {
    "default_version",
    "name",
    "domain_knowledge",
    "custom_instruction",
    "icon_url",
    "base_color",
    "light_color",
    "active",
    "visibility",
    "github_webhook_secret",
    "trust_threshold",
    "answer_mode",
    "anonymous_asks_per_hour",
    "anonymous_asks_per_day",
}
# What a question page shows of its guru, or decides by: a change drops its cached pages.
PAGE_FIELDS = {"name", "icon_url", "base_color", "light_color", "active", "visibility"}


def guru_create(
    *,
    slug: str,
    name: str,
    domain_knowledge: str = "",
    custom_instruction: str = "",
    icon_url: str = "",
    base_color: str | None = None,
    light_color: str | None = None,
    github_webhook_secret: str = "",
    trust_threshold: float | None = None,
    answer_mode: str = "",
    embedder: Embedder,
    store: VectorStore,
) -> Guru:
    """The guru takes the embedder's model and dimension for good, and gets its collection."""
    guru = Guru(
        slug=slug,
        name=name,
        domain_knowledge=domain_knowledge,
        custom_instruction=custom_instruction,
        icon_url=icon_url,
        github_webhook_secret=github_webhook_secret,
        trust_threshold=trust_threshold,
        answer_mode=answer_mode,
        embedding_model=embedder.model_name,
        embedding_dimension=embedder.dimension,
        collection_name=collection_name_for(slug),
    )
    if base_color:
        guru.base_color = base_color
    if light_color:
        guru.light_color = light_color
    guru.full_clean(exclude=["collection_name"], validate_unique=False)  # uniqueness: 409 below
    try:
        with transaction.atomic():
            guru.save()
    except IntegrityError as exc:
        raise DomainError(ErrorCode.CONFLICT, f"A guru named '{slug}' already exists.") from exc
    store.create_collection(guru.collection_name, dimension=guru.embedding_dimension)
    after = audit_fields(guru, ["slug", *sorted(EDITABLE_FIELDS)])
    audit_record(action="guru.create", target=guru, target_label=slug, guru=guru, after=after)
    return guru


def guru_update(*, guru: Guru, data: dict[str, Any]) -> Guru:
    unknown = set(data) - EDITABLE_FIELDS
    if unknown:
        raise DomainError(ErrorCode.INVALID_INPUT, f"Cannot change: {', '.join(sorted(unknown))}.")
    before = audit_fields(guru, data)
    for field, value in data.items():
        setattr(guru, field, value)
    guru.full_clean()
    guru.save()
    if any(before.get(name) != getattr(guru, name) for name in PAGE_FIELDS & set(data)):
        site_pages_revalidate(gurus=[guru.slug])
    audit_record(
        action="guru.update",
        target=guru,
        target_label=guru.slug,
        guru=guru,
        before=before,
        after=audit_fields(guru, data),
    )
    return guru


def guru_delete(*, guru: Guru, store: VectorStore) -> None:
    collection = guru.collection_name
    files = [source.file for source in guru.sources.all() if source.file]
    before = audit_fields(guru, ["slug", "name"])
    audit_record(
        action="guru.delete", target=guru, target_label=guru.slug, guru=guru, before=before
    )
    guru.delete()
    site_pages_revalidate(gurus=[before["slug"]])

    def _cleanup() -> None:
        store.drop_collection(collection)
        for stored in files:
            stored.delete(save=False)

    transaction.on_commit(_cleanup)


def guru_answers_changed(*, guru_id: int) -> None:
    """Something an earlier answer of this guru is served from changed (an answer saved, edited,
    marked stale or deleted; a source's version): no process serves its memo of the guru's
    answers again (`answers/answer_memo.py`). One UPDATE of one column: no signals, no
    `updated_at`; inside the caller's transaction, so it commits with the change."""
    Guru.objects.filter(pk=guru_id).update(answers_epoch=answers_epoch_new())

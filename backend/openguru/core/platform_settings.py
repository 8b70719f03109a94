"""The platform settings row (one per deployment): read it and change it."""

from typing import Any

from django.db import transaction

from openguru.core.audit.services import audit_fields, audit_record
from openguru.core.models import PlatformSettings

# What an admin may change at run time; every other column is bookkeeping.
EDITABLE_FIELDS = (
    "rerank_threshold",
    "trust_score_threshold",
    "trust_score_margin",
    "similar_question_threshold",
    "low_trust_threshold",
    "widget_answer_max_length",
    "answer_cache_enabled",
)


def platform_settings_get() -> PlatformSettings:
    return PlatformSettings.objects.get_or_create(pk=1)[0]


@transaction.atomic
def platform_settings_update(*, data: dict[str, Any]) -> PlatformSettings:
    row = PlatformSettings.objects.select_for_update().get_or_create(pk=1)[0]
    changed = [name for name in EDITABLE_FIELDS if name in data]
    before = audit_fields(row, changed)
    for name in changed:
        setattr(row, name, data[name])
    row.save(update_fields=[*changed, "updated_at"])
    after = audit_fields(row, changed)
    audit_record(action="settings.update", target=row, target_label="platform settings",
                 before=before, after=after)  # fmt: skip
    return row

"""A source that reached SUCCESS (`sources/signals.py`) has its guru's golden set measured again
(a FAQ source's pairs follow its entries first), once the indexing is committed."""

from typing import Any

from django.db import transaction
from django.dispatch import receiver

from openguru.evaluation.golden import golden_source_indexed
from openguru.sources.models import DataSource
from openguru.sources.signals import source_indexed


@receiver(source_indexed, dispatch_uid="evaluation-golden")
def _measure_golden(sender: Any, *, source: DataSource, **_: Any) -> None:
    source_id = source.pk
    transaction.on_commit(lambda: golden_source_indexed(source_id=source_id))

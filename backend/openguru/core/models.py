from typing import Any, TypeVar

from django.db import connection, models

M = TypeVar("M", bound=models.Model)

# The largest id a row can have (BigAutoField: PostgreSQL's bigint, SQLite's integer). An input
# id is checked against it, so a longer number is a 400 rather than the database's overflow.
DB_ID_MAX = 2**63 - 1


def partial_instance(model: type[M], loaded: dict[str, Any]) -> M:
    """A model instance from values read by raw SQL: only `loaded` (by attribute name) is set,
    every other field is deferred and read from the database if it is ever asked for.
    (`from_db` takes the values in the model's field order, whatever order the names are in.)"""
    names = [f.attname for f in model._meta.concrete_fields if f.attname in loaded]
    return model.from_db(connection.alias, names, [loaded[name] for name in names])


class TimeStampedModel(models.Model):
    created_at = models.DateTimeField(auto_now_add=True, db_index=True)
    updated_at = models.DateTimeField(auto_now=True)

    class Meta:
        abstract = True


class PlatformSettings(models.Model):
    """Deployment-wide thresholds an admin tunes at run time. Exactly one row (pk=1)."""

    rerank_threshold = models.FloatField(default=0.1)
    trust_score_threshold = models.FloatField(default=0.35)
    # Contexts scoring below (best - margin) are dropped even when above the threshold.
    trust_score_margin = models.FloatField(default=0.3)
    similar_question_threshold = models.FloatField(default=0.95)
    # Analytics: an answer whose trust score is below this counts as a weak one (a docs gap).
    low_trust_threshold = models.FloatField(default=0.5)
    widget_answer_max_length = models.PositiveIntegerField(default=1200)
    answer_cache_enabled = models.BooleanField(default=True)
    updated_at = models.DateTimeField(auto_now=True)

    class Meta:
        verbose_name = "settings"
        verbose_name_plural = "settings"

    def __str__(self) -> str:
        return "Platform settings"

    def save(self, *args: object, **kwargs: object) -> None:
        self.pk = 1
        super().save(*args, **kwargs)  # type: ignore[arg-type]

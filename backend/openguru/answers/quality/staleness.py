from collections.abc import Sequence

from openguru.answers.models import Question


def questions_mark_stale(*, source_ids: Sequence[int]) -> int:
    """Answers that cited a changed or deleted source are regenerated on their next request."""
    return Question.objects.filter(cited_sources__in=source_ids, stale=False).update(stale=True)

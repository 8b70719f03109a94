from collections.abc import Sequence

from openguru.answers.models import Question
from openguru.core.site_pages import question_page_path, site_pages_revalidate
from openguru.gurus.services import guru_answers_changed


def questions_mark_stale(*, source_ids: Sequence[int]) -> int:
    """Answers that cited a changed or deleted source are regenerated on their next request;
    no process serves them again from its memo (their gurus' epochs change) and their cached
    pages say so from now on."""
    citing = Question.objects.filter(cited_sources__in=source_ids, stale=False)
    gurus = set(citing.values_list("guru_id", flat=True).distinct())
    shown = citing.filter(binge__isnull=True).values_list("guru__slug", "slug").distinct()
    pages = [question_page_path(guru_slug=guru, question_slug=slug) for guru, slug in shown]
    site_pages_revalidate(paths=pages)
    marked = citing.update(stale=True)
    for guru_id in sorted(gurus):
        guru_answers_changed(guru_id=guru_id)
    return marked

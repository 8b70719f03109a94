"""Golden sets: question → expected-source pairs per guru (added by a maintainer, or one per
entry of a FAQ source), and the runs that measure them after every re-index.

A source reaching SUCCESS calls `golden_source_indexed`: a FAQ source's pairs follow its entries,
then, once no other source of the guru waits to be indexed, one run of the guru's set is asked
for. A run waiting or running already takes the place of
a new one (a unique constraint on the guru's active run). The run (`golden_run_execute`, the
`golden_run_task` on the light queue) measures recall@5 and the refusal rate
(`golden_measure.py`) and is flagged when either moved past its margin since the previous run.
"""

import logging
from datetime import timedelta

from django.conf import settings
from django.db import IntegrityError, transaction
from django.db.models import QuerySet
from django.utils import timezone
from kombu.exceptions import OperationalError

from openguru.answers.engine.providers import ProvidersFor
from openguru.core.audit.services import audit_fields, audit_record
from openguru.core.errors import DomainError, ErrorCode
from openguru.core.models import PlatformSettings
from openguru.core.task_send import task_send
from openguru.evaluation.golden_measure import golden_measure, regression_reason
from openguru.evaluation.models import GoldenPair, GoldenRun
from openguru.gurus.models import Guru
from openguru.sources.loaders.text import parse_faq
from openguru.sources.models import DataSource

logger = logging.getLogger(__name__)
Status = GoldenRun.Status
GOLDEN_RUN_TASK = "openguru.evaluation.tasks.golden_run_task"

# --- selectors -----------------------------------------------------------------------------------


def golden_pair_list(*, guru: Guru) -> QuerySet[GoldenPair]:
    return GoldenPair.objects.filter(guru=guru).select_related("expected_source").order_by("id")


def golden_run_list(*, guru: Guru) -> QuerySet[GoldenRun]:
    return GoldenRun.objects.filter(guru=guru).order_by("-created_at", "-id")


def golden_run_previous(*, run: GoldenRun) -> GoldenRun | None:
    """The guru's last finished run before `run`: what `run` is compared with."""
    earlier = GoldenRun.objects.filter(guru_id=run.guru_id, status=Status.DONE, pk__lt=run.pk)
    return earlier.order_by("-pk").first()


# --- pairs ---------------------------------------------------------------------------------------


def golden_pair_create(
    *, guru: Guru, question: str, expected_source_id: int, expected_link: str = ""
) -> GoldenPair:
    question = question.strip()
    if not question:
        raise DomainError(ErrorCode.INVALID_INPUT, "The question is empty.")
    source = DataSource.objects.filter(guru=guru, pk=expected_source_id).first()
    if source is None:
        raise DomainError(
            ErrorCode.SOURCE_NOT_FOUND, f"No source {expected_source_id} in this guru."
        )
    pair = GoldenPair(
        guru=guru, question=question, expected_source=source, expected_link=expected_link.strip()
    )
    try:
        with transaction.atomic():
            pair.save()
    except IntegrityError as exc:
        raise DomainError(
            ErrorCode.CONFLICT, "This question already expects that source and page."
        ) from exc
    after = audit_fields(pair, ["question", "expected_source_id", "expected_link"])
    audit_record(action="golden_pair.create", target=pair, guru=guru, after=after)
    return pair


def golden_pair_delete(*, guru: Guru, pair_id: int) -> None:
    pair = GoldenPair.objects.filter(guru=guru, pk=pair_id).first()
    if pair is None:
        raise DomainError(ErrorCode.NOT_FOUND, f"No golden pair {pair_id} in this guru.")
    before = audit_fields(pair, ["question", "expected_source_id", "expected_link"])
    audit_record(action="golden_pair.delete", target=pair, guru=guru, before=before)
    pair.delete()


def golden_faq_sync(*, source: DataSource) -> int:
    """One pair per entry of a FAQ source: new entries added, vanished ones removed, the rest
    kept with their ids (so runs before and after an edit compare on the same pairs).
    Returns the number of FAQ pairs the source has now."""
    try:
        questions = list(dict.fromkeys(pair.question for pair in parse_faq(source.content)))
    except DomainError:
        questions = []  # indexing succeeded from this body, so this is only a safety net
    existing = GoldenPair.objects.filter(expected_source=source, origin=GoldenPair.Origin.FAQ)
    existing.exclude(question__in=questions).delete()
    kept = set(existing.values_list("question", flat=True))
    GoldenPair.objects.bulk_create(
        [
            GoldenPair(
                guru_id=source.guru_id,
                question=question,
                expected_source=source,
                origin=GoldenPair.Origin.FAQ,
            )
            for question in questions
            if question not in kept
        ],
        ignore_conflicts=True,  # a maintainer's pair with the same question stays as it is
    )
    return len(questions)


# --- runs ----------------------------------------------------------------------------------------


def golden_source_indexed(*, source_id: int) -> GoldenRun | None:
    """A source reached SUCCESS: follow its FAQ entries, then ask for a run of its guru's set.
    Never raises: a golden set must not fail the indexing that fed it."""
    try:
        source = DataSource.objects.filter(pk=source_id).first()
        if source is None:
            return None
        if source.type == DataSource.Type.FAQ:
            golden_faq_sync(source=source)
        if _guru_still_indexing(guru_id=source.guru_id):
            # Measured half re-indexed (after a re-embed, or a batch of re-indexes), the guru
            # would look broken: the last of its sources to finish asks for the run.
            return None
        return golden_run_request(guru_id=source.guru_id, trigger_source_id=source.pk)
    except Exception:
        logger.exception("golden set: could not follow the re-index of source %s", source_id)
        return None


def _guru_still_indexing(*, guru_id: int) -> bool:
    waiting = (DataSource.Status.NOT_PROCESSED, DataSource.Status.PROCESSING)
    return DataSource.objects.filter(guru_id=guru_id, status__in=waiting).exists()


def golden_run_request(*, guru_id: int, trigger_source_id: int | None = None) -> GoldenRun | None:
    """Queue a run of the guru's set; None when it has no pairs. When a run is already queued or
    running, that run is returned and nothing new is queued."""
    if not GoldenPair.objects.filter(guru_id=guru_id).exists():
        return None
    _expire_stale_runs(guru_id=guru_id)
    try:
        with transaction.atomic():
            run = GoldenRun.objects.create(guru_id=guru_id, trigger_source_id=trigger_source_id)
    except IntegrityError:
        return GoldenRun.objects.filter(guru_id=guru_id, status__in=GoldenRun.ACTIVE).first()
    transaction.on_commit(lambda: _send(run.pk, guru_id))
    return run


def _send(run_id: int, guru_id: int) -> None:
    try:
        task_send(GOLDEN_RUN_TASK, guru_id)
    except OperationalError:
        # Left queued, the row would hold the guru's one active place until it expired.
        logger.warning("golden run %s: the broker is unreachable; not run", run_id)
        _finish(run_id, status=Status.FAILED, error="The task queue was unreachable.")


def _expire_stale_runs(*, guru_id: int) -> None:
    """A run whose worker died (or whose message was lost) must not block the guru forever."""
    cutoff = timezone.now() - timedelta(minutes=settings.GOLDEN_RUN_STALE_MINUTES)
    stale = GoldenRun.objects.filter(
        guru_id=guru_id, status__in=GoldenRun.ACTIVE, updated_at__lt=cutoff
    )
    for run_id in stale.values_list("pk", flat=True):
        logger.warning("golden run %s: no progress for a long time; marked failed", run_id)
        _finish(run_id, status=Status.FAILED, error="The run stopped without finishing.")


def golden_run_execute(*, guru_id: int, providers_for: ProvidersFor) -> GoldenRun | None:
    """Run the guru's queued run. None when there was none to take (another worker took it) or
    it failed (its row says why)."""
    run = GoldenRun.objects.filter(guru_id=guru_id, status=Status.QUEUED).first()
    if run is None:
        return None
    taken = GoldenRun.objects.filter(pk=run.pk, status=Status.QUEUED).update(
        status=Status.RUNNING, updated_at=timezone.now()
    )
    if not taken:
        return None
    guru = Guru.objects.get(pk=guru_id)
    pairs = list(golden_pair_list(guru=guru))
    try:
        measured = golden_measure(
            guru=guru,
            pairs=pairs,
            providers=providers_for(guru),
            platform=PlatformSettings.objects.get_or_create(pk=1)[0],
        )
    except DomainError as exc:  # the index needs a re-embed, the vector store is down, ...
        logger.warning("golden run %s of guru %s failed: %s", run.pk, guru_id, exc.msg)
        _finish(run.pk, status=Status.FAILED, error=exc.msg[:500])
        return None
    except Exception:
        logger.exception("golden run %s of guru %s failed", run.pk, guru_id)
        _finish(run.pk, status=Status.FAILED, error="An internal error stopped the run.")
        return None
    run.refresh_from_db()
    run.pairs = len(pairs)
    run.recall_at_5 = measured.recall_at_5
    run.refusal_rate = measured.refusal_rate
    run.details = measured.details
    run.status = Status.DONE
    run.finished_at = timezone.now()
    _flag_regression(run)
    run.save()
    return run


def _flag_regression(run: GoldenRun) -> None:
    previous = golden_run_previous(run=run)
    if previous is None:
        return
    reason = regression_reason(
        previous.details,
        run.details,
        recall_margin=settings.GOLDEN_RECALL_DROP_MARGIN,
        refusal_margin=settings.GOLDEN_REFUSAL_RISE_MARGIN,
    )
    if reason:
        run.flagged, run.flag_reason = True, reason
        logger.warning("golden run %s of guru %s flagged: %s", run.pk, run.guru_id, reason)


def _finish(run_id: int, *, status: str, error: str) -> None:
    GoldenRun.objects.filter(pk=run_id).update(
        status=status, error=error, finished_at=timezone.now(), updated_at=timezone.now()
    )

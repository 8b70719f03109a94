"""manage.py generate_volume --gurus 1000 --questions 10000000 --days 365: realistic volume on
PostgreSQL (answers/volume.py), for measuring reads at scale. Adds to what is there."""

import time
from typing import Any

from django.core.management.base import BaseCommand, CommandError, CommandParser

from openguru.answers.volume import volume_generate
from openguru.core.errors import DomainError


class Command(BaseCommand):
    help = (
        "Add public gurus with a year of questions, follow-ups, refusals, votes and decision "
        "traces, made by PostgreSQL itself (minutes for ten million questions)."
    )

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument("--gurus", type=int, default=1000)
        parser.add_argument("--questions", type=int, default=10_000_000)
        parser.add_argument("--days", type=int, default=365)
        parser.add_argument("--seed", type=float, default=0.42, help="PostgreSQL's setseed, -1..1.")
        parser.add_argument(
            "--label", default="", help="Goes into the slugs (vol-<label>NNNN): runs that add."
        )

    def handle(self, *args: Any, **options: Any) -> None:
        started = time.perf_counter()
        try:
            report = volume_generate(
                gurus=options["gurus"],
                questions=options["questions"],
                days=options["days"],
                seed=options["seed"],
                label=options["label"],
                progress=lambda message: self.stdout.write(f"  {message}"),
            )
        except DomainError as exc:
            raise CommandError(str(exc)) from exc
        self.stdout.write(
            f"Generated {report.gurus} gurus, {report.questions} questions "
            f"(+{report.follow_ups} follow-ups in {report.binges} sessions), "
            f"{report.refusals} refusals and {report.votes} votes "
            f"in {time.perf_counter() - started:.1f}s."
        )

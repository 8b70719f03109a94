"""manage.py guru_export <slug> --out <file.zip>: one guru, restorable with guru_import.
manage.py guru_export --all --out <folder>: every guru, one <slug>.zip each (scripts/backup.sh)."""

from pathlib import Path
from typing import Any

from django.core.management.base import BaseCommand, CommandError, CommandParser

from openguru.gurus.models import Guru
from openguru.ops.backup_export import guru_export
from openguru.providers.vectorstore.factory import get_vector_store


class Command(BaseCommand):
    help = (
        "Write a guru (sources with their chunks and files, questions and answers, sessions, "
        "votes, widget ids) to a zip file that guru_import restores; --all: every guru."
    )

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument("slug", nargs="?", default="")
        parser.add_argument("--all", action="store_true", help="Every guru, one zip file each.")
        parser.add_argument(
            "--out",
            required=True,
            type=Path,
            help="The zip file to write; with --all, the folder for <slug>.zip files.",
        )

    def handle(self, *args: Any, **options: Any) -> None:
        slug, out = options["slug"], options["out"]
        if options["all"] == bool(slug):
            raise CommandError("Name one guru, or pass --all.")
        if options["all"]:
            out.mkdir(parents=True, exist_ok=True)
            gurus = list(Guru.objects.order_by("slug"))
            for each in gurus:
                self._export(each, out / f"{each.slug}.zip")
            self.stdout.write(f"Exported {len(gurus)} gurus to {out}.")
            return
        guru = Guru.objects.filter(slug=slug).first()
        if guru is None:
            raise CommandError(f"No guru named '{slug}'.")
        self._export(guru, out)

    def _export(self, guru: Guru, out: Path) -> None:
        summary = guru_export(guru=guru, out=out, store=get_vector_store())
        self.stdout.write(
            f"Exported {guru.slug} to {out}: {summary.sources} sources "
            f"({summary.chunks} chunks, {summary.files} files), {summary.questions} questions."
        )

"""manage.py guru_reanalyze (--guru SLUG ... | --all): gurus onto the configured BM25 analyzer."""

from typing import Any

from django.core.management.base import BaseCommand, CommandError, CommandParser

from openguru.core.errors import DomainError
from openguru.gurus.models import Guru
from openguru.gurus.selectors import guru_bm25_analyzer
from openguru.ops.guru_maintenance import guru_reanalyze
from openguru.providers.vectorstore.factory import get_vector_store


class Command(BaseCommand):
    help = (
        "Copy each guru's chunks into a collection with the configured BM25 analyzer "
        "(MILVUS_BM25_ANALYZER), keeping the vectors: no source is fetched or embedded again."
    )

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument(
            "--guru", action="append", default=[], metavar="SLUG", help="A guru; repeatable."
        )
        parser.add_argument("--all", action="store_true", help="Every guru.")

    def handle(self, *args: Any, **options: Any) -> None:
        gurus = _gurus(options["guru"], every=options["all"])
        store = get_vector_store()
        target = store.bm25_analyzer
        failed = []
        for guru in gurus:
            before = guru_bm25_analyzer(guru=guru, store=store)
            try:
                moved = guru_reanalyze(guru=guru, store=store)
            except DomainError as error:
                self.stderr.write(f"{guru.slug}: not moved: {error.msg}")
                failed.append(guru.slug)
                continue
            if moved:
                chunks = store.count(guru.collection_name)
                self.stdout.write(f"{guru.slug}: moved {chunks} chunks from {before} to {target}")
            elif before is None:
                self.stdout.write(f"{guru.slug}: no chunks yet (new ones will use {target})")
            else:
                self.stdout.write(f"{guru.slug}: already on {target}")
        if failed:
            raise CommandError(f"Not moved: {', '.join(failed)}. Run again for these.")


def _gurus(slugs: list[str], *, every: bool) -> list[Guru]:
    if every == bool(slugs):
        raise CommandError("Name gurus with --guru SLUG, or pass --all (not both).")
    if every:
        return list(Guru.objects.order_by("slug"))
    found = {guru.slug: guru for guru in Guru.objects.filter(slug__in=slugs)}
    missing = [slug for slug in slugs if slug not in found]
    if missing:
        raise CommandError(f"No guru named {', '.join(repr(slug) for slug in missing)}.")
    return [found[slug] for slug in dict.fromkeys(slugs)]

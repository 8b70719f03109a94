"""The volume section's child process: Django on a scratch PostgreSQL database of its own, filled
by `generate_volume`'s service, then the reads the site and the console make timed on it.

    python -m benchmarks.volume_worker reads --gurus G --questions Q --days D --repeat R --result F
    python -m benchmarks.volume_worker export --guru SLUG --interval 12m --result F [--in-memory]

`reads` re-creates the database named by DATABASE_URL, migrates it and generates the volume;
`export` streams one CSV export through the API view (as an admin) in a fresh process, so its
peak resident memory is the export's, plus Django's own. Each writes one JSON object."""

import argparse
import json
import os
import random
import time
from collections.abc import Callable
from functools import partial
from pathlib import Path
from typing import Any

from benchmarks.capacity_worker import proc_status_mb
from benchmarks.stats import p50_p95


def _timed(call: Callable[[int], object], repeat: int) -> dict[str, Any]:
    call(0)  # the first read warms the connection and the plan cache
    times = []
    for n in range(repeat):
        started = time.perf_counter()
        call(n + 1)
        times.append((time.perf_counter() - started) * 1000)
    p50, p95 = p50_p95(times)
    return {"p50_ms": p50, "p95_ms": p95, "reads": repeat}


def _gurus_by_size() -> list[tuple[str, int]]:
    from django.db.models import Count
    from openguru.answers.models import Question

    rows = Question.objects.order_by().values("guru__slug").annotate(n=Count("id")).order_by("-n")
    return [(row["guru__slug"], row["n"]) for row in rows]


def _analytics(guru: Any, name: str, _: int) -> None:
    from openguru.answers.analytics.selectors import guru_analytics, interval_get

    guru_analytics(guru=guru, interval=interval_get(name=name))


def _guru_reads(slug: str, repeat: int) -> dict[str, Any]:
    from openguru.answers.site.selectors import (
        question_page_extras,
        questions_popular,
        questions_recent,
        site_question_get,
        site_questions,
        sources_by_type,
    )
    from openguru.gurus.models import Guru

    guru = Guru.objects.get(slug=slug)
    slugs = list(site_questions(guru=guru).order_by("?").values_list("slug", flat=True)[:200])

    def guru_page(_: int) -> None:
        questions_recent(guru=guru)
        questions_popular(guru=guru)
        sources_by_type(guru=guru)

    def question_page(n: int) -> None:
        question = site_question_get(guru=guru, slug=slugs[n % len(slugs)])
        question_page_extras(question=question)

    reads = {"guru_page": _timed(guru_page, repeat), "question_page": _timed(question_page, repeat)}
    for name in ("7d", "30d", "12m"):
        reads[f"analytics_{name}"] = _timed(partial(_analytics, guru, name), repeat)
    return reads


def _sitemap_reads(repeat: int) -> dict[str, Any]:
    from openguru.answers.site.selectors import sitemap_index, sitemap_questions

    index = sitemap_index()
    pages = index["pages"] or [1]
    picks = random.Random(7).choices(pages, k=repeat + 1)
    return {
        "pages": len(index["pages"]),
        "sitemap_index": _timed(lambda _: sitemap_index(), repeat),
        "sitemap_page": _timed(lambda n: sitemap_questions(page=picks[n]), repeat),
    }


def reads(args: argparse.Namespace) -> dict[str, Any]:
    import django

    from benchmarks.environment import recreate_postgres_database

    if not args.reuse:
        recreate_postgres_database(os.environ["DATABASE_URL"])
    django.setup()
    from django.core.management import call_command

    call_command("migrate", verbosity=0, interactive=False)
    from openguru.answers.models import Question
    from openguru.answers.volume import volume_generate

    started = time.perf_counter()
    if args.reuse:  # the rows an earlier run generated
        generated: dict[str, Any] = {"questions": Question.objects.filter(binge=None).count()}
    else:
        generated = vars(
            volume_generate(
                gurus=args.gurus,
                questions=args.questions,
                days=args.days,
                progress=lambda message: print(f"volume: {message}", flush=True),
            )
        )
    generated_s = time.perf_counter() - started
    sizes = _gurus_by_size()
    big, median = sizes[0], sizes[len(sizes) // 2]
    return {
        "generated": generated,
        "reused": args.reuse,
        "generate_s": None if args.reuse else round(generated_s, 1),
        "big_guru": {"slug": big[0], "questions": big[1], **_guru_reads(big[0], args.repeat)},
        "median_guru": {
            "slug": median[0],
            "questions": median[1],
            **_guru_reads(median[0], args.repeat),
        },
        **_sitemap_reads(args.repeat),
    }


def export(args: argparse.Namespace) -> dict[str, Any]:
    import django

    django.setup()
    from django.contrib.auth.models import User
    from django.test import Client
    from django.urls import get_resolver
    from openguru.answers.analytics.rows import ExportFilters, export_rows
    from openguru.answers.analytics.selectors import interval_get
    from openguru.api_v1.analytics_export import write_csv
    from openguru.gurus.models import Guru

    admin, _ = User.objects.get_or_create(
        username="volume-bench", defaults={"is_staff": True, "is_superuser": True}
    )
    client = Client()
    client.force_login(admin)
    get_resolver().url_patterns  # noqa: B018  every view module imported before measuring
    rss_before = proc_status_mb("VmRSS")
    started = time.perf_counter()
    size = lines = 0
    if args.in_memory:  # the file built whole, as it was before the export streamed
        guru = Guru.objects.get(slug=args.guru)
        rows = export_rows(
            guru=guru, interval=interval_get(name=args.interval), filters=ExportFilters()
        )
        body = write_csv(rows)
        size, lines = len(body), body.count(b"\n")
        del body, rows
    else:
        response = client.post(
            f"/api/v1/{args.guru}/analytics/export/",
            {"export_type": "csv", "interval": args.interval},
            content_type="application/json",
        )
        assert response.status_code == 200, response.status_code
        for chunk in response.streaming_content:  # type: ignore[attr-defined]
            size += len(chunk)
            lines += chunk.count(b"\n")
    return {
        "seconds": round(time.perf_counter() - started, 2),
        "bytes": size,
        "lines": lines,
        "rss_before_mb": rss_before,
        "peak_rss_mb": proc_status_mb("VmHWM"),
    }


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("mode", choices=["reads", "export"])
    parser.add_argument("--result", type=Path, required=True)
    parser.add_argument("--gurus", type=int, default=1000)
    parser.add_argument("--questions", type=int, default=10_000_000)
    parser.add_argument("--days", type=int, default=365)
    parser.add_argument("--repeat", type=int, default=30)
    parser.add_argument("--guru", default="")
    parser.add_argument("--interval", default="12m")
    parser.add_argument("--in-memory", action="store_true")
    parser.add_argument("--reuse", action="store_true", help="measure the rows already there")
    args = parser.parse_args()
    result = reads(args) if args.mode == "reads" else export(args)
    args.result.write_text(json.dumps(result, indent=2))


if __name__ == "__main__":
    main()

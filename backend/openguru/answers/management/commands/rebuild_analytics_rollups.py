"""manage.py rebuild_analytics_rollups: count every answer, refusal and vote into the daily
rollups again (the triggers keep them; this is for a restore that bypassed them)."""

import time
from typing import Any

from django.core.management.base import BaseCommand

from openguru.answers.analytics.services import analytics_rollups_rebuild


class Command(BaseCommand):
    help = "Rebuild the analytics' daily rollups from the answers, refusals and votes."

    def handle(self, *args: Any, **options: Any) -> None:
        started = time.perf_counter()
        analytics_rollups_rebuild()
        self.stdout.write(f"Rebuilt the analytics rollups in {time.perf_counter() - started:.1f}s.")

"""Jira in the connectors section: `n_items` issues (each with a description and a comment, in
Jira Cloud's REST v3 shapes) served by the loopback stand-in in this process."""

import uuid
from typing import Any

from benchmarks.connectors import index_and_resync, scratch_guru

EMAIL, TOKEN = "bench@example.com", "bench-api-token"  # the stand-in's own
PAGE_SIZE = 100


def bench_ingest(n_items: int = 1000) -> dict[str, Any]:
    from tests.fakes.jira_api import FakeJiraApi

    with FakeJiraApi(deployment="cloud", email=EMAIL, token=TOKEN) as jira:
        jira.issues.update(_issues(n_items, uuid.uuid4().hex[:8]))
        jira.page_size = PAGE_SIZE
        with scratch_guru("jira") as guru:
            return index_and_resync(
                guru=guru,
                connector="jira",
                n_items=n_items,
                url=jira.url,
                token=TOKEN,
                options={"deployment": "cloud", "jql": "project = BENCH", "email": EMAIL},
            )


def _issues(n_items: int, run: str) -> dict[str, Any]:
    from tests.fakes.jira_api import FakeJiraComment, FakeJiraIssue, adf

    issues = {}
    for number in range(1, n_items + 1):
        key = f"BENCH-{number}"
        issues[key] = FakeJiraIssue(
            key,
            f"Bench issue {number} of run {run}",
            adf(
                f"Issue {number} ({run}): the export job {number} stalls when queue {number % 7} "
                "is full; restarting the worker clears it until the next nightly batch.",
                f"Seen on build {number * 13} with the archive option set to level {number % 5}.",
            ),
            "2025-03-01T10:00:00.000+0000",
            status="Done",
            labels=[f"area-{number % 9}"],
            comments=[
                FakeJiraComment(
                    100000 + number,
                    adf(f"Fixed {number} ({run}) by raising the queue {number % 7} limit."),
                )
            ],
        )
    return issues

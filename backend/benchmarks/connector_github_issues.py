"""GitHub issues in the connectors section: a loopback GitHub (REST, GitHub's shapes) holding
`n_items` issues with one comment each."""

from typing import Any

from django.test import override_settings

from benchmarks.connectors import index_and_resync, scratch_guru

TOKEN = "github_pat_bench"  # noqa: S105  (the stand-in's own token)
TOPICS = ("installing", "upgrading", "configuring the cache", "the CLI", "logging", "deploying")


def bench_ingest(n_items: int = 1000) -> dict[str, Any]:
    from tests.fakes.github_api import FakeComment, FakeGitHubApi, FakeIssue

    with FakeGitHubApi(owner="bench", repo="project", token=TOKEN) as github:
        for number in range(1, n_items + 1):
            topic = TOPICS[number % len(TOPICS)]
            github.issues[number] = FakeIssue(
                number,
                f"Problem {number} when {topic}",
                f"Issue {number}: {topic} fails on host {number % 17} with error E{number}. "
                f"It started after release 2.{number % 9}; the log shows a timeout.",
                f"2025-01-01T00:{number // 60 % 60:02d}:{number % 60:02d}Z",
                state="closed",
                comments=[
                    FakeComment(
                        100_000 + number,
                        f"Fixed for {topic} by raising the timeout to {number % 50 + 10} s.",
                    )
                ],
            )
        with override_settings(GITHUB_API_URL=github.url), scratch_guru("gh") as guru:
            return index_and_resync(
                guru=guru,
                connector="github_issues",
                n_items=n_items,
                url=github.repo_url,
                options={"state": "all", "discussions": False},
                token=TOKEN,
            )

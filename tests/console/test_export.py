"""The analytics export (Gurubase's `POST /api/v1/<guru>/analytics/export/`): the same seeded
week read back from the CSV, JSON and Excel files."""

import csv
import io
import json
from dataclasses import dataclass
from typing import Any

import openpyxl
import pytest
from openguru.answers.analytics.rows import ExportFilters, export_rows
from openguru.answers.analytics.selectors import interval_get
from openguru.answers.models import OutOfContextQuestion
from openguru.api_v1.analytics_export import write_csv, write_json, write_xlsx
from openguru.integrations.apikeys.services import admin_token_owner, api_key_create
from rest_framework.test import APIClient

from tests.console.conftest import make_guru, seed_week

URL = "/api/v1/python/analytics/export/"
WEEK_QUESTIONS = [  # oldest first; same-time rows answers before refusals
    "How do I configure it?",
    "Where is the config file?",
    "Can it fly?",
    "asdf qwerty",
    "How do I install it?",
    "Does it run on a phone?",
    "What is the weather today?",
]


@dataclass
class Exported:
    status_code: int
    headers: Any
    content: bytes

    def __getitem__(self, header: str) -> str:
        return str(self.headers[header])


def _export(client: APIClient, export_type: str, **body: object) -> Exported:
    """The response, its streamed body read whole as a client would."""
    response = client.post(URL, {"export_type": export_type, "interval": "7d", **body}, "json")
    assert response.status_code == 200, response.json()
    assert response.streaming
    assert response["Content-Disposition"].startswith('attachment; filename="python-questions-7d')
    content = b"".join(response.streaming_content)
    return Exported(response.status_code, response.headers, content)


def _check_csv(client: APIClient) -> None:
    response = _export(client, "csv")
    assert response["Content-Type"] == "text/csv; charset=utf-8"
    rows = list(csv.DictReader(io.StringIO(response.content.decode("utf-8-sig"))))
    assert sorted(r["question"] for r in rows) == sorted(WEEK_QUESTIONS)
    by_question = {r["question"]: r for r in rows}
    install = by_question["How do I install it?"]
    assert install["channel"] == "ui"
    assert install["answer_excerpt"] == "Run pip install it."
    assert install["trust_score"] == "0.85"
    assert install["upvotes"] == "2"
    assert install["sources"] == (
        "Install <https://docs.example.com/install> | Config <https://docs.example.com/config>"
    )
    assert (install["refused"], install["out_of_context"], install["low_trust"]) == (
        "False", "False", "False",
    )  # fmt: skip
    assert by_question["asdf qwerty"]["refused"] == "True"
    assert by_question["What is the weather today?"]["out_of_context"] == "True"
    assert by_question["Can it fly?"]["low_trust"] == "True"
    assert by_question["Does it run on a phone?"]["downvotes"] == "1"


def test_csv(admin_api, seeded):
    _check_csv(admin_api)


@pytest.mark.sqlite
@pytest.mark.django_db
def test_csv_on_sqlite(admin_api):
    seed_week(make_guru())
    _check_csv(admin_api)


def test_json_with_gurubase_filters(admin_api, seeded):
    response = _export(
        admin_api,
        "json",
        filters={"questions": "widget", "out_of_context": "api", "referenced_sources": "pdf"},
    )
    document = json.loads(response.content)
    assert document["guru"] == "python"
    assert document["interval"] == "7d"
    rows = document["questions"]
    assert [(r["question"], r["channel"]) for r in rows] == [
        ("asdf qwerty", "api"),  # the only API refusal
        ("Does it run on a phone?", "widget"),  # the only widget answer
    ]
    assert rows[1]["sources"] == [{"title": "Guide", "url": "https://example.com/guide.pdf"}]
    assert rows[1]["trust_score"] == 0.45
    assert rows[0]["trust_score"] is None


def test_the_streamed_files_hold_what_the_files_built_in_memory_hold(admin_api, seeded):
    from tests.console.conftest import ask, refuse

    # Same-instant rows: the stream merges answers and refusals as the in-memory sort orders.
    at_once = ask(seeded.guru, "Same instant?", days_ago=2, trust_score=0.7)
    refusal = refuse(seeded.guru, "Same instant, refused", days_ago=2)
    OutOfContextQuestion.objects.filter(pk=refusal.pk).update(created_at=at_once.created_at)
    rows = export_rows(guru=seeded.guru, interval=interval_get(name="7d"), filters=ExportFilters())
    assert len(rows) == len(WEEK_QUESTIONS) + 2
    assert _export(admin_api, "csv").content == write_csv(rows)
    interval = interval_get(name="7d")
    assert _export(admin_api, "json").content == write_json(rows, guru="python", interval=interval)
    streamed = openpyxl.load_workbook(io.BytesIO(_export(admin_api, "xlsx").content)).active
    in_memory = openpyxl.load_workbook(io.BytesIO(write_xlsx(rows))).active
    assert list(streamed.iter_rows(values_only=True)) == list(in_memory.iter_rows(values_only=True))


def test_xlsx_and_no_formulas_from_visitors(admin_api, seeded):
    from tests.console.conftest import ask

    ask(seeded.guru, '=HYPERLINK("http://evil.example")', days_ago=0, trust_score=0.9)
    response = _export(admin_api, "xlsx")
    sheet = openpyxl.load_workbook(io.BytesIO(response.content)).active
    header, *rows = [list(row) for row in sheet.iter_rows(values_only=True)]
    assert header[:3] == ["date", "channel", "question"]
    questions = [row[2] for row in rows]
    assert sorted(questions) == sorted([*WEEK_QUESTIONS, '=HYPERLINK("http://evil.example")'])
    cell = next(c for c in sheet["C"] if str(c.value).startswith("=HYPERLINK"))
    assert cell.data_type == "s"  # text, not a formula

    as_csv = _export(admin_api, "csv").content.decode("utf-8-sig")
    assert "'=HYPERLINK" in as_csv


def test_a_staff_users_api_key_may_export_and_bad_input_is_a_400(admin_api, seeded):
    _, raw = api_key_create(user=admin_token_owner(), name="exports")
    client = APIClient()
    client.credentials(HTTP_X_API_KEY=raw)
    assert _export(client, "json").status_code == 200
    bad = admin_api.post(URL, {"export_type": "pdf"}, "json")
    assert bad.status_code == 400
    assert bad.json()["code"] == "invalid_input"
    missing = admin_api.post("/api/v1/nobody/analytics/export/", {"export_type": "csv"}, "json")
    assert missing.status_code == 404

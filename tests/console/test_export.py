"""The analytics export (Gurubase's `POST /api/v1/<guru>/analytics/export/`): the same seeded
week read back from the CSV, JSON and Excel files."""

import csv
import io
import json

import openpyxl
import pytest
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


def _export(client: APIClient, export_type: str, **body: object):
    response = client.post(URL, {"export_type": export_type, "interval": "7d", **body}, "json")
    assert response.status_code == 200, response.content
    assert response["Content-Disposition"].startswith('attachment; filename="python-questions-7d')
    return response


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

"""Versions through API v1 and the command line: data sources are added with a version label
and listed with it, and an answer reads the version the caller names."""

import io

from django.core.management import call_command
from openguru.answers.models import Question
from openguru.sources.models import DataSource
from rest_framework.test import APIClient

from tests.answers.test_versions import MIDDLEWARE, django_guru, page  # noqa: F401

V1 = "/api/v1/django"


def test_data_sources_carry_a_version_and_an_answer_reads_the_one_asked_for(
    django_guru,  # noqa: F811
    api_key,
    llm_server,
):
    client = APIClient()
    client.credentials(HTTP_X_API_KEY=api_key)
    added = client.post(
        f"{V1}/data-sources/",
        {"text_sources": [{"name": "Forms", "content": "# Forms\n\nUse forms."}], "version": "6.0"},
        format="json",
    )
    assert added.status_code == 200, added.content
    assert DataSource.objects.get(pk=added.json()[0]["id"]).version == "6.0"
    listed = client.get(f"{V1}/data-sources/").json()["results"]
    assert {s["version"] for s in listed} == {"6.0", "5.0", "4.2", ""}
    only_a_version = client.post(f"{V1}/data-sources/", {"version": "6.0"}, format="json")
    assert only_a_version.status_code == 400  # a version alone adds nothing

    answer = client.post(f"{V1}/answer/", {"question": MIDDLEWARE, "version": "4.2"}, format="json")
    assert answer.status_code == 200, answer.content
    question = Question.objects.get()
    assert question.version == "4.2"
    cited = set(question.cited_sources.values_list("url", flat=True))
    assert page("4.2") in cited and page("5.0") not in cited


def test_add_source_takes_a_version(django_guru, tmp_path):  # noqa: F811
    path = tmp_path / "forms.md"
    path.write_text("# Forms\n\nUse forms.\n", encoding="utf-8")
    out = io.StringIO()
    call_command(
        "add_source", "django", "text", str(path), "--version", "v6.0", stdout=out, stderr=out
    )
    assert DataSource.objects.get(title="", content__startswith="# Forms").version == "6.0"

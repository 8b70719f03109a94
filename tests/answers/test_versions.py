"""Versioned documentation: a question naming a version is answered from that version's sources
(plus the unversioned ones), else from the guru's default version, and a version the caller
chooses wins over both. Answers never cite two versions. Real retrieval in Milvus, the loopback
LLM, the database; asked through the site's answer endpoint."""

import pytest
from openguru.answers.models import Question
from openguru.gurus.models import Guru
from openguru.sources.models import DataSource
from openguru.sources.services import source_create

from tests.gurus.helpers import guru_make

pytestmark = pytest.mark.django_db(transaction=True)

BASE = "https://docs.example.org"
# The two versions' pages say nearly the same thing: retrieval without a version filter would
# find both for every question below.
PAGES = {
    "4.2": (
        "Middleware",
        "Add middleware to the MIDDLEWARE setting in settings.py. In this release the "
        "middleware class takes get_response and is synchronous only.",
    ),
    "5.0": (
        "Middleware",
        "Add middleware to the MIDDLEWARE setting in settings.py. In this release the "
        "middleware class takes get_response and may be asynchronous too.",
    ),
}
SHARED = (
    "Glossary",
    "A Django project is a Python package holding the settings of one site; an app is a "
    "package that provides one feature and can be reused across projects.",
)
MIDDLEWARE = "How do I add middleware to the MIDDLEWARE setting?"


def page(version: str) -> str:
    return f"{BASE}/{version}/middleware.html"


GLOSSARY = f"{BASE}/glossary.html"


@pytest.fixture
def django_guru(transactional_db) -> Guru:
    guru = guru_make(slug="django", name="Django", domain_knowledge="The Django web framework")
    for version, (title, text) in PAGES.items():
        source_create(
            guru=guru,
            type="text",
            url=page(version),
            title=f"{title} ({version})",
            content=f"# {title}\n\n{text}\n",
            version=version,
        )
    title, text = SHARED
    source_create(
        guru=guru, type="text", url=GLOSSARY, title=title, content=f"# {title}\n\n{text}\n"
    )
    assert set(guru.sources.values_list("status", flat=True)) == {"SUCCESS"}
    return guru


def ask(client, question: str, **extra) -> dict:
    response = client.post(
        "/api/gurus/django/answer/", {"question": question, **extra}, format="json"
    )
    assert response.status_code == 200, response.content
    body = response.json()
    assert body["refused"] is False, body
    return body


def cited(body: dict) -> set[str]:
    links = {r["link"].split("#")[0] for r in body["references"]}
    question = Question.objects.get(slug=body["slug"])
    sources = set(question.cited_sources.values_list("url", flat=True))
    assert links <= sources | {""}, (links, sources)
    return sources


def test_a_question_naming_a_version_cites_only_that_versions_pages(
    anon_client, django_guru, llm_server
):
    for wording, version in (
        ("How do I add middleware in Django 4.2?", "4.2"),
        ("How do I add middleware in v5.0?", "5.0"),
        ("How do I add middleware in version 4.2?", "4.2"),
    ):
        body = ask(anon_client, wording, mode="fast")
        sources = cited(body)
        assert page(version) in sources, (wording, sources)
        assert sources <= {page(version), GLOSSARY}, (wording, sources)
        question = Question.objects.get(slug=body["slug"])
        assert question.version == version
        assert question.trace["version"] == {"label": version, "how": "named"}
        shown = anon_client.get(f"/api/gurus/django/questions/{body['slug']}/")
        assert shown.json()["version"] == version  # the question page's "Version 4.2"


def test_without_a_named_version_the_default_is_read(anon_client, django_guru, llm_server):
    body = ask(anon_client, MIDDLEWARE, mode="fast")
    assert cited(body) <= {page("5.0"), GLOSSARY} and page("5.0") in cited(body)  # the newest
    assert Question.objects.get(slug=body["slug"]).trace["version"]["how"] == "default"

    django_guru.default_version = "4.2"  # the guru's own choice wins over the newest
    django_guru.save()
    body = ask(anon_client, "Where do I list middleware classes?", mode="fast")
    assert page("4.2") in cited(body) and page("5.0") not in cited(body)
    assert Question.objects.get(slug=body["slug"]).version == "4.2"


def test_the_version_the_caller_chose_wins(anon_client, django_guru, llm_server):
    body = ask(anon_client, "How do I add middleware in Django 5.0?", mode="fast", version="4.2")
    assert page("4.2") in cited(body) and page("5.0") not in cited(body)
    question = Question.objects.get(slug=body["slug"])
    assert question.trace["version"] == {"label": "4.2", "how": "explicit"}

    refused = anon_client.post(
        "/api/gurus/django/answer/", {"question": MIDDLEWARE, "version": "3.1"}, format="json"
    )
    assert refused.status_code == 400
    assert "5.0, 4.2" in refused.json()["msg"]  # it says which versions there are


def test_unversioned_sources_are_read_for_every_version(anon_client, django_guru, llm_server):
    question = "What is a Django project and what is an app?"
    for version in ("4.2", "5.0"):
        body = ask(anon_client, question, mode="fast", version=version)
        assert GLOSSARY in cited(body)
        assert not cited(body) & {page(v) for v in PAGES if v != version}


def test_an_answer_of_one_version_is_never_replayed_for_another(
    anon_client, django_guru, llm_server
):
    first = ask(anon_client, MIDDLEWARE, mode="fast", version="4.2")
    again = ask(anon_client, MIDDLEWARE, mode="fast", version="4.2")
    assert again["slug"] == first["slug"]  # the same version: the saved answer
    other = ask(anon_client, MIDDLEWARE, mode="fast", version="5.0")
    assert other["slug"] != first["slug"]
    assert page("5.0") in cited(other) and page("4.2") not in cited(other)


def test_a_label_changes_without_a_reindex(admin_client, anon_client, django_guru, llm_server):
    source = DataSource.objects.get(url=page("4.2"))
    indexed_at = source.last_indexed_at
    response = admin_client.patch(
        f"/api/gurus/django/sources/{source.pk}/", {"version": "5.1"}, format="json"
    )
    assert response.status_code == 200, response.content
    assert response.json()["version"] == "5.1"
    source.refresh_from_db()
    assert source.status == "SUCCESS" and source.last_indexed_at == indexed_at
    body = ask(anon_client, "Is the middleware synchronous only?", mode="fast")  # newest: 5.1
    assert page("4.2") in cited(body) and page("5.0") not in cited(body)

    bad = admin_client.patch(
        f"/api/gurus/django/sources/{source.pk}/", {"version": "4.2 beta"}, format="json"
    )
    assert bad.status_code == 400


def test_the_site_and_widget_list_the_versions(anon_client, django_guru):
    overview = anon_client.get("/api/gurus/django/overview/").json()
    assert overview["versions"] == ["5.0", "4.2"]
    assert overview["default_version"] == "5.0"
    django_guru.default_version = "4.2"
    django_guru.save()
    overview = anon_client.get("/api/gurus/django/overview/").json()
    assert overview["default_version"] == "4.2"


def test_sources_are_created_with_a_version_through_the_admin_api(admin_client, django_guru):
    response = admin_client.post(
        "/api/gurus/django/sources/",
        {"type": "text", "title": "Forms", "content": "# Forms\n\nUse forms.", "version": "v6.0"},
        format="json",
    )
    assert response.status_code == 201, response.content
    assert response.json()["version"] == "6.0"  # "v6.0" and "6.0" are one version
    guru = admin_client.patch("/api/gurus/django/", {"default_version": "4.2"}, format="json")
    assert guru.status_code == 200, guru.content
    assert guru.json()["default_version"] == "4.2"


def test_a_follow_up_keeps_the_version_of_the_question_it_follows(
    anon_client, django_guru, llm_server
):
    first = ask(anon_client, MIDDLEWARE, mode="fast", version="4.2")
    binge = anon_client.post(
        "/api/gurus/django/binges/", {"root_slug": first["slug"]}, format="json"
    )
    assert binge.status_code == 201, binge.content
    follow_up = ask(
        anon_client,
        "Is the middleware class synchronous only?",
        mode="fast",
        binge_id=binge.json()["binge_id"],
        parent_slug=first["slug"],
    )
    question = Question.objects.get(slug=follow_up["slug"], binge__isnull=False)
    assert question.trace["version"] == {"label": "4.2", "how": "follow_up"}
    assert page("5.0") not in set(question.cited_sources.values_list("url", flat=True))

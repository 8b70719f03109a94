"""References under an answer: one per source page, with an icon for the kind of source."""

import pytest
from openguru.answers.engine.context import Context, references_for
from openguru.gurus.models import Guru
from openguru.sources.models import DataSource
from openguru.sources.selectors import source_types


def context(source_id: int, title: str, link: str) -> Context:
    return Context(source_id=source_id, title=title, link=link, type="text", relevance=0.9)


def test_the_icon_follows_the_source_type_not_the_link():
    contexts = [
        context(1, "Guide", "https://docs.example.org/guide.html"),
        context(2, "setup.py", "https://git.example.org/acme/tool/-/blob/main/setup.py"),
        context(3, "Talk", "https://www.youtube.com/watch?v=abc"),
        context(4, "Manual", "/media/sources/manual.pdf"),
        context(5, "Notes", "https://docs.example.org/notes.html"),
        context(6, "FAQ", "https://docs.example.org/faq"),
    ]
    types = {1: "website", 2: "github_repo", 3: "youtube", 4: "pdf", 5: "text", 6: "faq"}
    icons = [r["icon"] for r in references_for(contexts, source_types=types)]
    assert icons == ["web", "github", "youtube", "pdf", "text", "faq"]


def test_a_source_deleted_meanwhile_still_gets_a_reference():
    [reference] = references_for([context(9, "Gone", "https://x.example.org/")], source_types={})
    assert reference == {"title": "Gone", "link": "https://x.example.org/", "icon": "web"}


def test_chunks_of_one_page_give_one_reference():
    page = context(1, "Guide", "https://docs.example.org/guide.html")
    assert len(references_for([page, page], source_types={1: "website"})) == 1


@pytest.mark.django_db
def test_source_types_are_read_once_per_process(django_assert_num_queries):
    guru = Guru.objects.create(slug="t", name="T", collection_name="guru_t", embedding_dimension=8)
    source = DataSource.objects.create(guru=guru, type="pdf", url="/media/a.pdf")
    with django_assert_num_queries(1):
        assert source_types(source_ids=[source.pk, 10**9]) == {source.pk: "pdf"}
    with django_assert_num_queries(0):
        assert source_types(source_ids=[source.pk]) == {source.pk: "pdf"}

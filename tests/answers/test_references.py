"""References under an answer: one per source page, with an icon for the kind of source."""

from openguru.answers.context import Context, references_for


def context(source_id: int, title: str, link: str) -> Context:
    return Context(source_id=source_id, title=title, link=link, type="text", relevance=0.9)


def test_the_icon_follows_the_source_type_not_the_link():
    contexts = [
        context(1, "Guide", "https://docs.example.org/guide.html"),
        context(2, "setup.py", "https://git.example.org/acme/tool/-/blob/main/setup.py"),
        context(3, "Talk", "https://www.youtube.com/watch?v=abc"),
        context(4, "Manual", "/media/sources/manual.pdf"),
        context(5, "Notes", "https://docs.example.org/notes.html"),
    ]
    types = {1: "website", 2: "github_repo", 3: "youtube", 4: "pdf", 5: "text"}
    icons = [r["icon"] for r in references_for(contexts, source_types=types)]
    assert icons == ["web", "github", "youtube", "pdf", "text"]


def test_a_source_deleted_meanwhile_still_gets_a_reference():
    [reference] = references_for([context(9, "Gone", "https://x.example.org/")], source_types={})
    assert reference == {"title": "Gone", "link": "https://x.example.org/", "icon": "web"}


def test_chunks_of_one_page_give_one_reference():
    page = context(1, "Guide", "https://docs.example.org/guide.html")
    assert len(references_for([page, page], source_types={1: "website"})) == 1

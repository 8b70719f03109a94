"""Scoped API keys and a guru's visibility, as people set them: a key limited to named gurus
and to asking or managing never does more than its owner may (the access rule intersects
both), a scoped key never reaches what only admins do, and both changes are audited."""

from openguru.core.audit.models import AuditEvent
from openguru.gurus.models import Visibility
from rest_framework.test import APIClient

from tests.accounts.conftest import Org

TEXT = {"type": "text", "title": "Notes", "content": "Use four spaces."}


def _signed_in(user) -> APIClient:
    client = APIClient()
    client.force_login(user)
    return client


def _key(org_user, **scope) -> APIClient:
    response = _signed_in(org_user).post("/api/api-keys/", {"name": "k", **scope}, format="json")
    assert response.status_code == 201, response.content
    client = APIClient()
    client.credentials(HTTP_X_API_KEY=response.json()["key"])
    return client


def test_a_key_is_created_with_its_scope_listed_and_audited(org: Org):
    person = _signed_in(org.maintainer)
    made = person.post(
        "/api/api-keys/", {"name": "docs bot", "scope": "ask", "gurus": ["python"]}, format="json"
    )
    assert made.status_code == 201
    assert (made.json()["scope"], made.json()["gurus"]) == ("ask", ["python"])
    listed = person.get("/api/api-keys/").json()
    assert [(k["name"], k["scope"], k["gurus"]) for k in listed] == [
        ("docs bot", "ask", ["python"])
    ]
    event = AuditEvent.objects.filter(action="api_key.create").latest("id")
    assert event.actor == "max"
    assert (event.after["scope"], event.after["gurus"]) == ("ask", ["python"])


def test_a_key_cannot_name_a_guru_its_owner_may_not_see(org: Org):
    org.other.visibility = Visibility.PRIVATE
    org.other.save()
    made = _signed_in(org.member).post(
        "/api/api-keys/", {"name": "k", "gurus": ["other"]}, format="json"
    )
    assert made.status_code == 404 and made.json()["code"] == "guru_not_found"


def test_an_ask_key_asks_but_does_not_manage(org: Org):
    key = _key(org.maintainer, scope="ask", gurus=["python"])
    assert key.get("/api/v1/python/sessions/").status_code == 200
    assert key.get("/api/gurus/python/sources/").status_code == 403
    v1_write = key.post(
        "/api/v1/python/data-sources/",
        {"texts": [{"name": "Notes", "content": "Use four spaces."}]},
        format="json",
    )
    assert v1_write.status_code == 403
    assert key.get("/api/v1/other/sessions/").json()["code"] == "guru_not_found"


def test_a_manage_key_never_exceeds_its_owner(org: Org):
    member_key = _key(org.member, scope="manage", gurus=["python"])
    assert member_key.get("/api/gurus/python/sources/").status_code == 403
    assert member_key.get("/api/v1/python/sessions/").status_code == 200
    maintainer_key = _key(org.maintainer, scope="manage")
    assert maintainer_key.get("/api/gurus/python/sources/").status_code == 200
    assert maintainer_key.get("/api/gurus/other/sources/").status_code == 403


def test_a_scoped_admin_key_reaches_only_its_gurus_and_no_admin_endpoint(org: Org):
    key = _key(org.admin, scope="manage", gurus=["python"])
    assert key.get("/api/gurus/python/sources/").status_code == 200
    assert key.get("/api/gurus/other/sources/").status_code == 403
    assert key.get("/api/members/").status_code == 403
    assert key.delete("/api/gurus/python/").status_code == 403
    listed = {guru["slug"] for guru in key.get("/api/gurus/").json()}
    assert listed == {"python"}
    # An unscoped key of the same admin still does everything.
    assert _key(org.admin).get("/api/members/").status_code == 200


def test_a_visibility_change_is_audited_and_hides_the_guru(org: Org):
    maintainer = _signed_in(org.maintainer)
    changed = maintainer.patch("/api/gurus/python/", {"visibility": "private"}, format="json")
    assert changed.status_code == 200 and changed.json()["visibility"] == "private"
    event = AuditEvent.objects.filter(action="guru.update").latest("id")
    assert (event.before, event.after) == ({"visibility": "public"}, {"visibility": "private"})
    assert event.actor == "max" and event.guru_slug == "python"
    assert APIClient().get("/api/gurus/python/").status_code == 404
    assert _signed_in(org.member).get("/api/gurus/python/").status_code == 200
    refused = _signed_in(org.member).patch(
        "/api/gurus/python/", {"visibility": "public"}, format="json"
    )
    assert refused.status_code == 403


def test_a_members_page_of_a_private_guru_is_not_indexed(org: Org):
    from openguru.answers.models import Question

    org.python.visibility = Visibility.PRIVATE
    org.python.save()
    Question.objects.create(
        guru=org.python, slug="how", question="How?", user_question="How?", content="Thus."
    )
    page = _signed_in(org.member).get("/api/gurus/python/questions/how/")
    assert page.status_code == 200
    assert page.json()["indexable"] is False
    assert page["X-Robots-Tag"] == "noindex, nofollow"
    assert APIClient().get("/api/gurus/python/questions/how/").status_code == 404
    org.python.visibility = Visibility.PUBLIC
    org.python.save()
    public = APIClient().get("/api/gurus/python/questions/how/")
    assert public.json()["indexable"] is True and "X-Robots-Tag" not in public


def test_a_key_whose_only_guru_is_deleted_reaches_no_other(org: Org):
    key = _key(org.admin, scope="ask", gurus=["other"])
    assert key.get("/api/v1/python/sessions/").json()["code"] == "guru_not_found"
    org.other.delete()
    assert key.get("/api/v1/python/sessions/").json()["code"] == "guru_not_found"
    assert key.get("/api/gurus/").json() == []

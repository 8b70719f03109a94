"""The Members API (admins only): list, change role, grant and revoke gurus, deactivate."""

from openguru.accounts.access import Action, guru_permission, gurus_visible_to

from tests.accounts.conftest import PASSWORD, Org, actor_client, csrf_client


def test_list_members_with_roles_and_gurus(org: Org):
    members = {m["username"]: m for m in actor_client(org, "admin").get("/api/members/").json()}
    assert members["ada"]["role"] == "admin"
    assert members["max"] == {**members["max"], "role": "maintainer", "gurus": ["python"]}
    assert members["mia"]["role"] == "member" and members["mia"]["active"] is True


def test_grant_revoke_and_change_role(org: Org):
    admin = actor_client(org, "admin")
    user_id = org.member.pk
    assert not guru_permission(actor=org.member, guru=org.python, action=Action.MANAGE)

    promoted = admin.patch(f"/api/members/{user_id}/", {"role": "maintainer"}, format="json")
    assert promoted.json()["role"] == "maintainer"
    assert guru_permission(actor=org.member, guru=org.python, action=Action.MANAGE)
    assert not guru_permission(actor=org.member, guru=org.other, action=Action.MANAGE)

    granted = admin.post(f"/api/members/{user_id}/gurus/", {"guru": "other"}, format="json")
    assert granted.json()["gurus"] == ["other", "python"]
    assert guru_permission(actor=org.member, guru=org.other, action=Action.MANAGE)

    assert admin.delete(f"/api/members/{user_id}/gurus/python/").status_code == 204
    assert not guru_permission(actor=org.member, guru=org.python, action=Action.MANAGE)
    assert admin.delete(f"/api/members/{user_id}/gurus/python/").status_code == 404

    made_admin = admin.patch(f"/api/members/{user_id}/", {"role": "admin"}, format="json")
    org.member.refresh_from_db()
    assert made_admin.json()["role"] == "admin" and org.member.is_staff


def test_an_inactive_guru_is_visible_only_to_who_manages_it(org: Org):
    org.python.active = False
    org.python.save()
    assert org.python in gurus_visible_to(org.maintainer)
    assert org.python not in gurus_visible_to(org.maintainer_other)
    assert org.python not in gurus_visible_to(None)
    assert actor_client(org, "anonymous").get("/api/gurus/python/").status_code == 404
    assert actor_client(org, "maintainer").get("/api/gurus/python/").status_code == 200
    listed = actor_client(org, "maintainer_other").get("/api/gurus/").json()
    assert [g["slug"] for g in listed] == ["other"]


def test_a_deactivated_person_can_no_longer_sign_in_or_use_keys(org: Org):
    maintainer = actor_client(org, "maintainer")
    assert maintainer.get("/api/gurus/python/sources/").status_code == 200
    response = actor_client(org, "admin").patch(
        f"/api/members/{org.maintainer.pk}/", {"active": False}, format="json"
    )
    assert response.json()["active"] is False
    assert maintainer.get("/api/gurus/python/sources/").status_code == 401

    browser, csrf = csrf_client()
    body = {"username": "max", "password": PASSWORD}
    refused = browser.post("/api/auth/login/", body, format="json", HTTP_X_CSRFTOKEN=csrf)
    assert refused.status_code == 400


def test_nobody_changes_their_own_role(org: Org):
    response = actor_client(org, "admin").patch(
        f"/api/members/{org.admin.pk}/", {"role": "member"}, format="json"
    )
    assert response.status_code == 403
    org.admin.refresh_from_db()
    assert org.admin.is_staff


def test_maintainers_and_members_sign_in_people_without_a_role_do_not(org: Org):
    from django.contrib.auth import get_user_model

    get_user_model().objects.create_user("nobody", password=PASSWORD)
    for username, status in [("max", 200), ("mia", 200), ("nobody", 403)]:
        browser, csrf = csrf_client()
        body = {"username": username, "password": PASSWORD}
        response = browser.post("/api/auth/login/", body, format="json", HTTP_X_CSRFTOKEN=csrf)
        assert response.status_code == status, (username, response.content)

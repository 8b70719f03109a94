"""The claim → role and gurus mapping of single sign-on, on the real models: the highest role
wins, unknown slugs are skipped, grants the claim no longer gives are taken away."""

import pytest
from django.core.exceptions import SuspiciousOperation
from openguru.accounts.models import GuruGrant, Role
from openguru.accounts.sso import sso_member_sync, sso_role

from tests.accounts.conftest import Org, make_person


@pytest.fixture
def mapping(settings) -> None:
    settings.OIDC_ROLE_CLAIM = "groups"
    settings.OIDC_ROLE_MAP = {"og-admins": "admin", "py": "maintainer", "staff": "member"}
    settings.OIDC_GURU_MAP = {"py": ["python", "gone"], "staff": ["other"]}


@pytest.mark.usefixtures("mapping")
def test_the_highest_mapped_role_wins():
    assert sso_role(claims={"groups": ["staff", "py"]}) == Role.MAINTAINER
    assert sso_role(claims={"groups": "og-admins"}) == Role.ADMIN
    assert sso_role(claims={"groups": ["visitors"]}) is None
    assert sso_role(claims={}) is None


@pytest.mark.usefixtures("mapping")
def test_sync_sets_the_role_and_exactly_the_mapped_gurus(org: Org):
    person = make_person("lin", Role.ADMIN, [org.other])
    sso_member_sync(user=person, claims={"groups": ["py"]})
    person.refresh_from_db()
    assert (person.membership.role, person.is_staff) == (Role.MAINTAINER, False)
    assert [g.guru.slug for g in GuruGrant.objects.filter(user=person)] == ["python"]
    with pytest.raises(SuspiciousOperation):
        sso_member_sync(user=person, claims={"groups": ["visitors"]})

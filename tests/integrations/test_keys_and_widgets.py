import hashlib

import pytest
from openguru.core.errors import DomainError, ErrorCode
from openguru.integrations.apikeys.services import api_key_authenticate, api_key_create
from openguru.integrations.models import APIKey
from openguru.integrations.widget.domains import origin_allowed

pytestmark = pytest.mark.django_db


def test_keys_are_stored_hashed_with_a_visible_prefix(django_user_model):
    user = django_user_model.objects.create_user("owner")
    key, raw = api_key_create(user=user, name="ci")
    stored = APIKey.objects.get(pk=key.pk)
    assert raw not in (stored.hashed_key, stored.prefix)
    assert stored.hashed_key == hashlib.sha256(raw.encode()).hexdigest()
    assert raw.startswith(stored.prefix)
    assert api_key_authenticate(raw_key=raw) == key
    assert api_key_authenticate(raw_key=raw + "x") is None


def test_at_most_five_personal_keys_but_integrations_do_not_count(django_user_model):
    user = django_user_model.objects.create_user("busy")
    for i in range(5):
        api_key_create(user=user, name=f"k{i}")
    api_key_create(user=user, name="slack", integration=True)
    with pytest.raises(DomainError) as refused:
        api_key_create(user=user, name="sixth")
    assert refused.value.code == ErrorCode.API_KEY_LIMIT


def test_inactive_users_keys_do_not_authenticate(django_user_model):
    user = django_user_model.objects.create_user("gone")
    _, raw = api_key_create(user=user, name="old")
    user.is_active = False
    user.save()
    assert api_key_authenticate(raw_key=raw) is None


@pytest.mark.parametrize(
    ("pattern", "origin", "allowed"),
    [
        ("", "https://anything.org", False),  # "any site" must be said: "*"
        (" ", "https://anything.org", False),
        ("*", "https://anything.org", True),
        ("*", "http://localhost:5173", True),
        ("*", "null", False),
        ("https://docs.example.com", "https://docs.example.com", True),
        ("https://docs.example.com", "https://docs.example.com:443", True),
        ("https://docs.example.com", "https://docs.example.com:8443", False),
        ("docs.example.com", "http://docs.example.com", True),
        ("docs.example.com", "https://docs.example.com:8443", False),
        ("docs.example.com:8443", "https://docs.example.com:8443", True),
        ("*.example.com", "https://a.example.com:8443", False),
        ("http://localhost:3000", "http://localhost:3000", True),
        ("https://docs.example.com", "ftp://docs.example.com", False),
        ("docs.example.com", "https://docs.example.com", True),
        ("docs.example.com", "https://evil.com", False),
        ("https://docs.example.com", "http://docs.example.com", False),
        ("*.example.com", "https://a.example.com", True),
        ("*.example.com", "https://a.b.example.com", True),
        ("*.example.com", "https://example.com", False),
        ("*.example.com", "https://badexample.com", False),
        ("http://localhost:*", "http://localhost:5173", True),
        ("http://localhost:*", "https://localhost:5173", False),
        ("http://localhost:3000", "http://localhost:4000", False),
        ("docs.example.com", "", False),
    ],
)
def test_widget_domain_patterns(pattern, origin, allowed):
    assert origin_allowed(pattern=pattern, origin=origin) is allowed

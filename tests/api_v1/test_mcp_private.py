"""MCP and a private guru: its tools are listed and answer only for keys of the people
granted it (and admins), and a scoped key sees the tools of its own gurus only."""

import pytest
from django.contrib.auth import get_user_model
from mcp import Client
from mcp.shared.exceptions import MCPError
from openguru.accounts.models import GuruGrant, Role
from openguru.accounts.services import membership_set
from openguru.gurus.models import Guru, Visibility
from openguru.integrations.apikeys.services import admin_token_owner, api_key_create
from openguru.integrations.models import APIKey

from tests.api_v1.test_mcp import with_mcp
from tests.gurus.helpers import guru_make

pytestmark = pytest.mark.django_db(transaction=True)


def _key_of(username: str, granted: list[Guru]) -> str:
    user = get_user_model().objects.create_user(username)
    membership_set(user=user, role=Role.MEMBER)
    for guru in granted:
        GuruGrant.objects.create(user=user, guru=guru)
    return api_key_create(user=user, name="agent")[1]


async def _tools(client: Client) -> list[str]:
    return [tool.name for tool in (await client.list_tools()).tools]


async def _asks_secret(client: Client) -> bool:
    try:
        result = await client.call_tool("ask_secret", {"question": "What is it?"})
    except MCPError as error:  # a tool of a guru one may not see does not exist
        assert "Unknown tool" in str(error)
        return False
    return not result.is_error


def test_a_private_gurus_tools_are_for_the_people_granted_it(live_asgi, python_guru):
    secret = guru_make(slug="secret", name="Secret")
    Guru.objects.filter(pk=secret.pk).update(visibility=Visibility.PRIVATE)
    granted, stranger = _key_of("mia", [secret]), _key_of("moe", [])

    assert with_mcp(live_asgi, {"X-API-KEY": granted}, _tools) == [
        "ask_python", "search_python", "ask_secret", "search_secret",
    ]  # fmt: skip
    assert with_mcp(live_asgi, {"X-API-KEY": stranger}, _tools) == [
        "ask_python", "search_python",
    ]  # fmt: skip
    assert with_mcp(live_asgi, {"X-API-KEY": granted}, _asks_secret) is True
    assert with_mcp(live_asgi, {"X-API-KEY": stranger}, _asks_secret) is False


def test_a_scoped_key_lists_its_own_gurus_only(live_asgi, python_guru):
    guru_make(slug="secret", name="Secret")
    _, scoped = api_key_create(
        user=admin_token_owner(), name="agent", scope=APIKey.Scope.ASK, guru_slugs=["secret"]
    )
    assert with_mcp(live_asgi, {"X-API-KEY": scoped}, _tools) == ["ask_secret", "search_secret"]

"""What the doors for agents share (the OpenAI-compatible chat completions and the MCP server):
the API key, which their clients send as `Authorization: Bearer <key>` as often as in
`X-API-KEY`, and a whole answer as one markdown text that names its sources."""

from collections.abc import Sequence

from openguru.answers.engine.admission import admitted_ask
from openguru.answers.engine.ask import AskRequest, Providers
from openguru.api_v1.answer import first_event
from openguru.core.errors import DomainError, ErrorCode
from openguru.integrations.apikeys.services import api_key_authenticate
from openguru.integrations.models import APIKey


def raw_api_key(*, x_api_key: str, authorization: str) -> str:
    """`X-API-KEY` if sent, else the token of `Authorization: Bearer <token>`."""
    raw = x_api_key.strip()
    if raw:
        return raw
    scheme, _, token = authorization.strip().partition(" ")
    return token.strip() if scheme.lower() == "bearer" else ""


def agent_api_key(*, x_api_key: str, authorization: str) -> APIKey:
    """Blocking (database). A missing, unknown or revoked key is a 401, as with
    `api_key_from_request`."""
    raw = raw_api_key(x_api_key=x_api_key, authorization=authorization)
    if not raw:
        raise DomainError(
            ErrorCode.NOT_AUTHENTICATED,
            "Send your API key in the X-API-KEY header or as Authorization: Bearer <key>.",
        )
    key = api_key_authenticate(raw_key=raw)
    if key is None:
        raise DomainError(ErrorCode.NOT_AUTHENTICATED, "This API key is not valid.")
    return key


def sources_suffix(text: str, references: Sequence[dict[str, str]]) -> str:
    """A "Sources:" list of the references `text` does not link to already ("" if none): an
    agent passes the text on, and the links are what make it checkable."""
    missing = [r for r in references if r.get("link") and r["link"] not in text]
    if not missing:
        return ""
    links = "\n".join(f"- [{r.get('title') or r['link']}]({r['link']})" for r in missing)
    return f"\n\nSources:\n{links}"


def engine_error(data: dict[str, str]) -> DomainError:
    """The engine's `error` event as the error it was raised as."""
    try:
        code = ErrorCode(data["code"])
    except ValueError:
        code = ErrorCode.INTERNAL
    return DomainError(code, data["msg"])


async def answer_markdown(request: AskRequest, providers: Providers) -> str:
    """The whole answer with its sources, or, for a question the guru declines, its refusal
    text: to an agent that is an answer too ("the sources don't cover it")."""
    events = admitted_ask(request, providers)
    try:
        try:
            await first_event(events)
        except DomainError as exc:
            if exc.code == ErrorCode.NO_ANSWER:
                return exc.msg
            raise
        async for event in events:
            if event.name == "error":
                raise engine_error(event.data)
            if event.name == "done":
                content = event.data["content"]
                return content + sources_suffix(content, event.data["references"])
        raise DomainError(ErrorCode.INTERNAL, "The answer ended early.")
    finally:
        await events.aclose()

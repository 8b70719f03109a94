"""POST /api/v1/<guru_slug>/chat/completions: a Guru behind OpenAI's chat completions protocol,
so any OpenAI client can ask it (`base_url=".../api/v1/<guru_slug>"`, `api_key=<API key>`; the
key is read from `Authorization: Bearer` as the SDK sends it, or from `X-API-KEY`).

The last user message is the question and the user/assistant turns before it the conversation,
which the engine gets as history (`conversations.py`). Answers take the one ask path
(`answers/channels/`) and its chat/completions encoder (`answers/channels/chat.py`: the answer
with its numbered "Sources:" list (the inline citations' numbers), refusals as ordinary
messages, errors in OpenAI's envelope, `stream: true` as `chat.completion.chunk` events).
Unknown OpenAI parameters (temperature, tools, ...) are ignored: the guru's own settings
decide. `model` is echoed back, or the guru's slug when none is given. An async Django view,
like `answer.py`, so that a stream is not buffered.
"""

import time
from dataclasses import dataclass

from django.http import HttpRequest, JsonResponse, StreamingHttpResponse
from django.views.decorators.csrf import csrf_exempt
from rest_framework import serializers

from openguru.answers.channels.chat import Completion, chat_error, chat_response
from openguru.answers.channels.prepare import Ask, Prepared, ask_prepare
from openguru.answers.channels.rules import Channel
from openguru.answers.engine.providers import providers_for
from openguru.api_v1.access import caller_guru
from openguru.api_v1.agents import agent_api_key
from openguru.api_v1.conversations import conversation_from_messages
from openguru.core.asgi import skips_site_middleware
from openguru.core.errors import DomainError, ErrorCode
from openguru.core.json_body import parse_json_body
from openguru.core.openapi_stand_ins import documented_by
from openguru.core.threads import run_blocking


class ChatInput(serializers.Serializer):
    model = serializers.CharField(required=False, allow_blank=True, default="", max_length=200)
    messages = serializers.ListField(
        child=serializers.DictField(), allow_empty=False, max_length=1000
    )
    stream = serializers.BooleanField(required=False, default=False)


@dataclass(frozen=True)
class _Chat:
    prepared: Prepared
    completion: Completion
    stream: bool


def _prepare(request: HttpRequest, guru_slug: str, received_at: float) -> _Chat:
    """Blocking: key, rate limit, guru, body and, for a follow-up, its binge, in one hop."""
    key = agent_api_key(
        x_api_key=request.headers.get("X-API-KEY", ""),
        authorization=request.headers.get("Authorization", ""),
    )
    caller = caller_guru(key=key, guru_slug=guru_slug)
    data = parse_json_body(request, ChatInput)
    conversation = conversation_from_messages(data["messages"])
    prepared = ask_prepare(
        channel=Channel.CHAT,
        asker=caller.asker,
        guru_slug=guru_slug,
        ask=Ask(question=conversation.question, history=conversation.history),
        providers_for=providers_for,
        received_at=received_at,
    )
    return _Chat(prepared, Completion(model=data["model"] or guru_slug), stream=data["stream"])


@documented_by("openguru.api_v1.openapi.CHAT_COMPLETIONS")
@skips_site_middleware
@csrf_exempt
async def chat_completions(
    request: HttpRequest, guru_slug: str
) -> StreamingHttpResponse | JsonResponse:
    received_at = time.perf_counter()
    if request.method != "POST":
        return chat_error(DomainError(ErrorCode.METHOD_NOT_ALLOWED, "Use POST."))
    try:
        chat = await run_blocking(_prepare, request, guru_slug, received_at)
        return await chat_response(chat.prepared, chat.completion, stream=chat.stream)
    except DomainError as exc:
        return chat_error(exc)

"""API v1's answer: JSON in Gurubase's shape, or with `stream` its markdown stream
(`markdown.py`). Each answer belongs to a session (a binge owned by the key's person): the one
asked in, else one rooted at the answer, reused while it has no follow-ups."""

from dataclasses import dataclass
from functools import partial
from typing import Any

from django.contrib.auth.models import User
from django.http import JsonResponse, StreamingHttpResponse

from openguru.answers.channels.events import answer_done, first_event
from openguru.answers.channels.gurubase import answer_payload, saved_answer
from openguru.answers.channels.markdown import markdown_response
from openguru.answers.channels.prepare import Prepared
from openguru.answers.models import Binge
from openguru.answers.selectors import binge_unused_for
from openguru.answers.services import binge_for_answer
from openguru.core.threads import run_blocking


@dataclass(frozen=True)
class ApiAsk:
    prepared: Prepared
    owner: User  # the key's person: the sessions are theirs
    stream: bool
    # Read in the same hop as the key: a repeated question's answer then needs no further
    # database round trip to name its session.
    unused_session: Binge | None = None


def api_ask(prepared: Prepared, *, owner: User, stream: bool) -> ApiAsk:
    """Blocking. The ask with its owner's unused session for these words, if any."""
    unused = None
    if prepared.binge is None and not prepared.reading:
        unused = binge_unused_for(guru=prepared.guru, owner=owner, text=prepared.request.question)
    return ApiAsk(prepared=prepared, owner=owner, stream=stream, unused_session=unused)


def _payload(call: ApiAsk, answer: dict[str, Any]) -> dict[str, Any]:
    """Blocking: the answer in Gurubase's shape, with the session it belongs to."""
    prepared = call.prepared
    binge = binge_for_answer(
        owner=call.owner, guru=prepared.guru, question_id=answer["id"], binge=prepared.binge
    )
    return answer_payload(answer, session_id=str(binge.pk))


async def _answered(call: ApiAsk, answer: dict[str, Any]) -> dict[str, Any]:
    """A database hop only when the answer's session is not known yet."""
    binge = call.prepared.binge
    known = binge or call.unused_session
    if known is not None and (binge or known.root_question_id == answer["id"]):
        return answer_payload(answer, session_id=str(known.pk))
    return await run_blocking(partial(_payload, call, answer))


async def api_response(call: ApiAsk) -> StreamingHttpResponse | JsonResponse:
    """Raises `DomainError` before any byte is sent (the door answers it)."""
    if call.prepared.reading:
        return JsonResponse(await run_blocking(partial(_saved_payload, call)))
    events = call.prepared.events()
    if call.stream:
        # The session must exist before a client asks for it (fetch_existing).
        title = call.prepared.request.question
        return await markdown_response(events, title=title, on_done=partial(_answered, call))
    try:
        await first_event(events)
        return JsonResponse(await _answered(call, await answer_done(events)))
    finally:
        await events.aclose()


def _saved_payload(call: ApiAsk) -> dict[str, Any]:
    return _payload(call, saved_answer(call.prepared))

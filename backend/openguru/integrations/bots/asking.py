"""What every bot ask goes through before the engine: the integration's own API key, counted
and noted as an /api/v1/ call with that key would be (its per-minute limit, its "last used"),
and the request: the thread's binge, and a question record of its own for every ask."""

import logging

from openguru.answers.engine.ask import AskRequest
from openguru.core.errors import DomainError, ErrorCode
from openguru.core.ratelimit import api_key_rate_limit_check
from openguru.integrations.apikeys.services import api_key_touch
from openguru.integrations.bots.threads import BotThread, thread_history

logger = logging.getLogger(__name__)

BUSY = "I'm getting more questions than I can answer right now. Please ask again in a minute."


def bot_ask_request(*, thread: BotThread, question: str, source: str) -> AskRequest | None:
    """Blocking (database, cache). The request to answer `question` in `thread`, or None when
    the integration's key is over its rate limit (the bot replies `BUSY` instead).

    Every ask is answered anew and saved as its own question (`reuse_answers=False`): the same
    question asked in two threads roots two binges, and each ask counts in the analytics."""
    key = thread.integration.api_key
    if key is not None:  # an integration always gets one; an admin may have deleted it since
        try:
            api_key_rate_limit_check(key_id=key.pk)
        except DomainError as exc:
            if exc.code != ErrorCode.RATE_LIMITED:
                raise
            logger.info("integration %s: over its key's rate limit", thread.integration.pk)
            return None
        api_key_touch(key=key)
    binge, parent = thread_history(thread=thread)
    return AskRequest(
        guru=thread.integration.guru,
        question=question,
        source=source,
        binge=binge,
        parent=parent,
        reuse_answers=False,
    )

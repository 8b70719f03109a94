"""A bot's door to the ask path: the integration's own API key, counted and noted as an
/api/v1/ call with that key would be (its per-minute limit, its "last used"), and the thread's
binge. Every ask is answered anew and saved as its own question (the channels' rules)."""

import logging

from openguru.answers.channels.access import Asker, key_asker
from openguru.answers.channels.prepare import Ask, Prepared, ask_prepare
from openguru.answers.channels.rules import Channel
from openguru.answers.engine.providers import providers_for
from openguru.core.errors import DomainError, ErrorCode
from openguru.integrations.apikeys.services import api_key_touch
from openguru.integrations.bots.selectors import thread_binge
from openguru.integrations.bots.threads import BotThread

logger = logging.getLogger(__name__)

BUSY = "I'm getting more questions than I can answer right now. Please ask again in a minute."


def bot_ask_prepare(*, thread: BotThread, question: str, channel: Channel) -> Prepared | None:
    """Blocking (database, cache). The ask of `question` in `thread`, or None when the
    integration's key is over its rate limit (the bot replies `BUSY` instead)."""
    integration = thread.integration
    key = integration.api_key
    # The bots' sessions are their threads': anonymous, whoever owns the integration's key.
    asker = Asker(guru=integration.guru)
    if key is not None:  # an integration always gets one; an admin may have deleted it since
        try:
            asker = key_asker(key_id=key.pk, user=None, guru=integration.guru)
        except DomainError as exc:
            if exc.code != ErrorCode.RATE_LIMITED:
                raise
            logger.info("integration %s: over its key's rate limit", integration.pk)
            return None
        api_key_touch(key=key)
    binge = thread_binge(
        integration=integration, channel_id=thread.channel_id, thread_id=thread.thread_id
    )
    return ask_prepare(
        channel=channel,
        asker=asker,
        guru_slug=integration.guru.slug,
        ask=Ask(question=question, binge_id=binge.pk if binge else None),
        providers_for=providers_for,
    )

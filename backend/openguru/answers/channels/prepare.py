"""The step every ask takes before the engine, on every channel: the limits, the guru and who
may ask it (`access.py`), the session, and the `AskRequest`. A door reads its own credential
and body, then calls `ask_prepare` in one worker-thread hop; the encoder of its channel writes
what `Prepared.events()` yields."""

from collections.abc import AsyncGenerator
from dataclasses import dataclass
from functools import partial
from uuid import UUID

from rest_framework import serializers

from openguru.answers.answer_memo import answer_memo_get, guru_versions_memo
from openguru.answers.channels.access import (
    Asker,
    asker_guru,
    asker_quota_check,
    asker_rate_check,
)
from openguru.answers.channels.rules import RULES, Channel
from openguru.answers.engine.admission import admitted_ask
from openguru.answers.engine.ask import AskRequest, ask
from openguru.answers.engine.events import AnswerEvent
from openguru.answers.engine.groundwork import platform_settings
from openguru.answers.engine.providers import Providers, ProvidersFor
from openguru.answers.engine.versions import version_label_choose
from openguru.answers.models import Binge, Question
from openguru.answers.selectors import binge_follow_up_parent, binge_of_asker, question_get
from openguru.answers.services import binge_discard_if_empty, binge_open
from openguru.core.threads import run_blocking
from openguru.gurus.models import Guru
from openguru.sources.versions import VERSION_MAX_CHARS, version_checked

MAX_QUESTION_CHARS = 2000


def version_field() -> serializers.CharField:
    """The ask body's `version`, the same on every door that offers a version selector."""
    return serializers.CharField(
        required=False,
        allow_blank=True,
        max_length=VERSION_MAX_CHARS,
        help_text='A documentation version of the guru ("4.2"); "" or absent: the version the '
        "question names, else the guru's default.",
    )


@dataclass(frozen=True)
class Ask:
    """What the asker sent, read from the channel's own body."""

    question: str
    binge_id: UUID | str | None = None  # the session to ask in
    parent_slug: str = ""  # the question this one follows
    mode: str = ""  # the answer mode ("" -> the guru's, else the deployment's)
    short_answer: bool | None = None  # None: the channel's default
    history: tuple[tuple[str, str], ...] = ()  # turns a client kept itself (chat/completions)
    reading: bool = False  # only reading the saved answer to it (fetch_existing): not an ask
    version: str = ""  # the documentation version chosen ("": named in the question or default)


@dataclass(frozen=True)
class Prepared:
    channel: Channel
    asker: Asker
    request: AskRequest
    providers: Providers
    reading: bool = False
    opened_binge: bool = False  # a binge opened for this ask (its history), dropped if unused

    @property
    def guru(self) -> Guru:
        return self.request.guru

    @property
    def binge(self) -> Binge | None:
        return self.request.binge

    def events(self) -> AsyncGenerator[AnswerEvent, None]:
        """The engine's events for this ask, within the process's answer slots where the
        channel's rules say so: then the first `anext` may raise `overloaded`."""
        asking = admitted_ask if RULES[self.channel].shed_load else ask
        return asking(self.request, self.providers)

    async def release(self) -> None:
        """Once the answer is over: drop the binge opened for it if nothing was saved there."""
        if self.opened_binge and self.binge is not None:
            await run_blocking(partial(binge_discard_if_empty, binge=self.binge))


def ask_prepare(
    *,
    channel: Channel,
    asker: Asker,
    guru_slug: str,
    ask: Ask,
    providers_for: ProvidersFor,
    received_at: float | None = None,
) -> Prepared:
    """Blocking (database, cache). Limits count asks, so reading a saved answer is not counted
    as a visitor's question."""
    rules = RULES[channel]
    if not ask.reading:
        asker_rate_check(asker=asker)
    guru = asker_guru(asker=asker, slug=guru_slug)
    if not ask.reading:
        asker_quota_check(asker=asker, guru=guru)
    providers = providers_for(guru)
    binge, opened = _binge(guru, asker, ask)  # once nothing before it refused
    question = ask.question.strip()
    parent = None if ask.reading else _parent(guru, binge, ask.parent_slug)
    version = version_checked(guru=guru, version=ask.version) if ask.version else ""
    reusable = rules.reuse_answers and binge is None and platform_settings().answer_cache_enabled
    request = AskRequest(
        guru=guru,
        question=question,
        source=rules.source,
        binge=binge,
        parent=parent,
        mode=ask.mode,
        received_at=received_at,
        short_answer=rules.short_answer if ask.short_answer is None else ask.short_answer,
        history=ask.history,
        reuse_answers=rules.reuse_answers,
        version=version,
        remembered=_remembered(guru, question, version, parent) if reusable else None,
    )
    return Prepared(
        channel=channel,
        asker=asker,
        request=request,
        providers=providers,
        reading=ask.reading,
        opened_binge=opened,
    )


def _remembered(
    guru: Guru, question: str, version: str, parent: Question | None
) -> Question | None:
    """The answer this process keeps for the question (`answers/answer_memo.py`), looked up
    the way the engine's exact-match lookup would: `guru` was read by this ask, so its epoch
    is current."""
    label, _ = version_label_choose(
        guru=guru,
        question=question,
        explicit=version,
        inherited=parent.version if parent is not None else "",
        versions=guru_versions_memo(guru=guru),
    )
    return answer_memo_get(guru=guru, text=question, version=label)


def _binge(guru: Guru, asker: Asker, ask: Ask) -> tuple[Binge | None, bool]:
    """The session named, or a new one for an answer that depends on a client's history."""
    if ask.history:
        return binge_open(guru=guru, owner=asker.user), True
    if ask.binge_id:
        return binge_of_asker(guru=guru, binge_id=ask.binge_id, owner=asker.user), False
    return None, False


def _parent(guru: Guru, binge: Binge | None, slug: str) -> Question | None:
    if binge is not None:
        return binge_follow_up_parent(binge=binge, named=slug)
    return question_get(guru=guru, slug=slug) if slug else None

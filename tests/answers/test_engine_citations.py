"""Through the engine's stages (in-memory store, fake embedder): the sources an answer lists are
the ones it cites, numbered as its inline citations number them, in `meta`, `done` and the
saved question alike, with or without an LLM."""

import re

import pytest
from openguru.answers.engine.ask import AskRequest
from openguru.answers.models import Question
from openguru.providers.llm.fake import FakeLLM

from tests.answers.memory_guru import answer_events, indexed_guru, memory_providers, text_of

pytestmark = [pytest.mark.fast, pytest.mark.django_db(transaction=True)]

QUESTION = "How do I create a virtual environment and handle exceptions?"
_CONTEXT = re.compile(r'<context id="(\d+)" title="([^"]*)"')


def cited_numbers(text: str) -> list[int]:
    return [int(n) for n in re.findall(r"\[(\d+)\]", text)]


def test_an_extractive_answer_lists_only_the_sources_it_quotes():
    providers = memory_providers()
    guru = indexed_guru(providers)
    events = answer_events(AskRequest(guru=guru, question=QUESTION, mode="fast"), providers)

    text, done = text_of(events), events[-1].data
    numbers = cited_numbers(text)
    assert sorted(set(numbers)) == list(range(1, len(done["references"]) + 1))
    assert events[0].data["references"] == done["references"]  # known before the text
    assert Question.objects.get().references == done["references"]
    # every listed source is quoted: its number is in the text, under its own words
    titles = [r["title"] for r in done["references"]]
    assert "List comprehensions" not in titles  # read, maybe, but not quoted


def test_an_llm_answer_lists_the_sources_it_cites_numbered_as_cited():
    llm = FakeLLM(responses=["Use venv [2]. Catch errors [1][2]. Not a source [9]."])
    providers = memory_providers(llm=llm)
    guru = indexed_guru(providers)
    events = answer_events(AskRequest(guru=guru, question=QUESTION, mode="fast"), providers)

    prompt_titles = dict(_CONTEXT.findall(llm.calls[0][0].content))
    assert len(prompt_titles) >= 2
    done = events[-1].data
    assert [r["title"] for r in done["references"]] == [prompt_titles["2"], prompt_titles["1"]]
    one, two = (f"[[{n}]]({r['link']})" for n, r in enumerate(done["references"], start=1))
    assert (
        text_of(events)
        == done["content"]
        == f"Use venv {one}. Catch errors {two}{one}. Not a source ."
    )
    assert Question.objects.get().references == done["references"]

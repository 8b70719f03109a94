"""Example questions phrased from headings and titles, without an LLM: what a visitor would ask."""

import pytest
from openguru.answers.site.phrasing import question_from_heading

pytestmark = pytest.mark.fast


@pytest.mark.parametrize(
    ("heading", "question"),
    [
        # A task heading asks how to do it, the verb in its base form.
        ("Installing Flask", "How do I install Flask?"),
        ("Creating a virtual environment", "How do I create a virtual environment?"),
        ("Using pip", "How do I use pip?"),
        ("Running tests", "How do I run tests?"),
        ("Writing views", "How do I write views?"),
        ("Managing users", "How do I manage users?"),
        ("Adding routes", "How do I add routes?"),
        ("Setting up logging", "How do I set up logging?"),
        ("Treating warnings", "How do I treat warnings?"),
        ("Joining tables", "How do I join tables?"),
        ("How to deploy", "How do I deploy?"),
        # A section name stands for a task on the guru's subject.
        ("Configuration", "How do I configure Flask?"),
        ("1.2 Installation", "How do I install Flask?"),
        ("Getting started", "How do I get started with Flask?"),
        # A topic asks how it works, in sentence case; names keep their capitals.
        ("Virtual environments", "How do virtual environments work?"),
        ("Routing", "How does routing work?"),
        ("String formatting", "How does string formatting work?"),
        ("JSON support", "How does JSON support work?"),
        ("Flask blueprints", "How do Flask blueprints work?"),
        ("Errors — Python docs", "How do errors work?"),
        # A document's title asks what it covers.
        ("Flaskr-CLI Operations Guide", "What does the Flaskr-CLI Operations Guide cover?"),
        # A question stays one.
        ("Is it thread-safe", "Is it thread-safe?"),
        ("Why does my app reload twice?", "Why does my app reload twice?"),
        ("  ## ", ""),
    ],
)
def test_a_heading_becomes_a_question_a_visitor_would_ask(heading, question):
    assert question_from_heading(heading, subject="Flask") == question


@pytest.mark.parametrize(
    "heading", ["Exceptions", "Configuration", "Installing Flask", "Routing", "Python Guide"]
)
def test_no_question_is_what_is_the_heading(heading):
    assert not question_from_heading(heading, subject="Flask").startswith("What is ")

"""The near-duplicate cache's wording guard: other words for the same question pass, a question
that only looks alike to the embedding does not."""

import pytest
from openguru.answers.wording import same_question


@pytest.mark.parametrize(
    ("first", "second"),
    [
        ("How do I create a virtual environment?", "how do I create a virtual environment??"),
        ("How do I create a virtual environment?", "How do you create the virtual environment"),
        (
            "How do I create a virtual environment with venv?",
            "With venv, how do I create a virtual environment?",
        ),
        ("What flows between Bingen and Bonn?", "What flows between the Bingen and Bonn?"),
        ("Please, how does one read a CSV file?", "How do I read a CSV file"),
        ("In Python, how do I read a file?", "How do I read a file in Python?"),
    ],
)
def test_other_words_for_the_same_question(first, second):
    assert same_question(first, second)
    assert same_question(second, first)


@pytest.mark.parametrize(
    ("first", "second"),
    [
        # The embedding puts each of these pairs at cosine 0.99 or more.
        ("How do I convert a string to a number?", "How do I convert a number to a string?"),
        (
            "Sky UK Limited is formerly known by what name?",
            "Sky UK Limited is now known by what name?",
        ),
        (
            "What did the Italian government fail to do in Francovich v Italy?",
            "What did the Italian government not fail to do in Francovich v Italy?",
        ),
        (
            "What concept, originally discovered by Black, was later discovered independently by Watt?",
            "What concept, originally discovered by Watt, was later discovered independently by Black?",
        ),
        ("How do I sort a list in ascending order?", "How do I sort a list in descending order?"),
        ("Is Python 2 supported?", "Is Python 3 supported?"),
        ("How do I read a file?", "How can I read a file?"),
        ("What is a Django model form?", "What is a Django form model?"),
        ("Can I create my own functions in C?", "Can I create my own functions in C++?"),
        ("Is C# supported?", "Is C supported?"),
        ("How do I read a file?", "How do I read a file in Python?"),
    ],
)
def test_a_question_that_only_looks_alike(first, second):
    assert not same_question(first, second)
    assert not same_question(second, first)

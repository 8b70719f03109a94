"""How a version is read from a question and how labels order: a numeric label is a word of its
own ("4.2", "v4.2", not "4.21"; "3" only as "v3"), a word label only beside "version"; newest first, numbers part
by part, words above numbers."""

import pytest
from openguru.answers.engine.versions import version_named
from openguru.core.errors import DomainError
from openguru.sources.versions import version_label_clean, versions_sorted

pytestmark = pytest.mark.fast

VERSIONS = ["latest", "5.0", "4.2", "4.10", "3"]


@pytest.mark.parametrize(
    ("question", "named"),
    [
        ("How do I add middleware in Django 4.2?", "4.2"),
        ("How do I add middleware in v5.0?", "5.0"),
        ("How do I add middleware in version 4.2", "4.2"),
        ("Is 4.10 different from 4.2 here?", "4.10"),  # the first one named
        ("What changed in the latest version?", "latest"),
        ("Which docs cover version latest?", "latest"),
        ("How do I add middleware?", ""),
        ("How do I get the latest release notes?", ""),  # "latest" as an ordinary word
        ("Does 4.21 support it?", ""),  # not 4.2
        ("Does 14.2 support it?", ""),
        ("Does 4.2.1 support it?", ""),  # a point release of no label
        ("Set the timeout to 3 seconds in 5.0", "5.0"),  # a bare integer is just a number…
        ("Is this in version 3?", "3"),  # …unless it is called a version
        ("Is this in v3?", "3"),
    ],
)
def test_a_version_is_named_only_as_a_word_of_its_own(question, named):
    assert version_named(question, VERSIONS) == named


def test_labels_sort_newest_first():
    assert versions_sorted(["4.2", "4.10", "latest", "4.9", "5.0", "", "4.2"]) == [
        "latest",
        "5.0",
        "4.10",
        "4.9",
        "4.2",
    ]


@pytest.mark.parametrize(
    ("raw", "stored"), [(" 4.2 ", "4.2"), ("v5.0", "5.0"), ("", ""), ("dev", "dev")]
)
def test_labels_are_cleaned(raw, stored):
    assert version_label_clean(raw) == stored


@pytest.mark.parametrize("raw", ["4.2 beta", "-rc", "x" * 33, "4/2"])
def test_bad_labels_are_refused(raw):
    with pytest.raises(DomainError):
        version_label_clean(raw)

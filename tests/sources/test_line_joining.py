"""Wrapped lines joined back into sentences (a PDF page's text, hard-wrapped text), while
titles, list items, tables and fences keep their own lines."""

import pytest
from openguru.sources.loaders.line_joining import heading_like, lines_joined

pytestmark = pytest.mark.fast


def test_a_hyphenated_word_is_mended_and_a_break_inside_a_sentence_is_a_space():
    text = "The configu-\nration file is read\nat startup."
    assert lines_joined(text) == "The configuration file is read at startup."


def test_a_hyphen_before_a_capital_or_a_number_is_kept():
    assert lines_joined("Python-\n3.10 is needed.") == "Python-3.10 is needed."


def test_paragraphs_stay_apart():
    assert lines_joined("One line\nwrapped.\n\nAnother\nparagraph.") == (
        "One line wrapped.\n\nAnother paragraph."
    )


def test_titles_list_items_tables_and_fences_keep_their_lines():
    text = (
        "Installing the app\nRun the installer.\n- first item\n- second item\n"
        "## Usage\nStart it.\n| a | b |\n| c | d |\n```\ncode\n```"
    )
    assert lines_joined(text).splitlines() == [
        "Installing the app",
        "Run the installer.",
        "- first item",
        "- second item",
        "## Usage",
        "Start it.",
        "| a | b |",
        "| c | d |",
        "```",
        "code",
        "```",
    ]


def test_a_wrapped_list_item_is_joined():
    assert (
        lines_joined("- the workers key sets\nhow many run")
        == "- the workers key sets how many run"
    )


def test_what_reads_as_a_title():
    assert heading_like("Configuration")
    assert heading_like("## Running the workers on every host in the cluster today")
    assert heading_like("2.1 Install")
    assert not heading_like("The workers key sets how many workers run.")
    assert not heading_like("- workers")
    assert not heading_like("Install it like this:")

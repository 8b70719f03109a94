"""Jira's rich text read as plain text: Atlassian Document Format (Cloud) and wiki markup (Data
Center), on the node kinds and markup Jira's editors produce."""

from openguru.sources.connectors.jira_text import adf_text, wiki_text


def _text(value: str, *marks: dict) -> dict:
    return {"type": "text", "text": value, **({"marks": list(marks)} if marks else {})}


def _para(*content: dict) -> dict:
    return {"type": "paragraph", "content": list(content)}


def test_adf_blocks_become_lines_a_person_reads() -> None:
    doc = {
        "type": "doc",
        "version": 1,
        "content": [
            {"type": "heading", "attrs": {"level": 3}, "content": [_text("Fix")]},
            _para(
                _text("See "),
                _text("the guide", {"type": "link", "attrs": {"href": "https://x.example/g"}}),
                {"type": "hardBreak"},
                {"type": "mention", "attrs": {"id": "557058:f1", "text": "@Ada"}},
                _text(" "),
                {"type": "emoji", "attrs": {"shortName": ":smile:", "text": "😄"}},
                _text(" "),
                {"type": "status", "attrs": {"text": "BLOCKED", "color": "red"}},
                _text(" on "),
                {"type": "date", "attrs": {"timestamp": "1735689600000"}},
            ),
            {
                "type": "orderedList",
                "attrs": {"order": 1},
                "content": [
                    {"type": "listItem", "content": [_para(_text("first"))]},
                    {
                        "type": "listItem",
                        "content": [
                            _para(_text("second")),
                            {
                                "type": "bulletList",
                                "content": [
                                    {"type": "listItem", "content": [_para(_text("nested"))]}
                                ],
                            },
                        ],
                    },
                ],
            },
            {"type": "codeBlock", "attrs": {"language": "sh"}, "content": [_text("make  fix")]},
            {"type": "blockquote", "content": [_para(_text("quoted"))]},
            {
                "type": "table",
                "content": [
                    {
                        "type": "tableRow",
                        "content": [
                            {"type": "tableHeader", "content": [_para(_text("Key"))]},
                            {"type": "tableHeader", "content": [_para(_text("Value"))]},
                        ],
                    },
                    {
                        "type": "tableRow",
                        "content": [
                            {"type": "tableCell", "content": [_para(_text("mode"))]},
                            {"type": "tableCell", "content": [_para(_text("calm"))]},
                        ],
                    },
                ],
            },
            {"type": "panel", "attrs": {"panelType": "info"}, "content": [_para(_text("Note"))]},
            {"type": "mediaSingle", "content": [{"type": "media", "attrs": {"id": "abc"}}]},
            {"type": "rule"},
            {
                "type": "taskList",
                "content": [
                    {"type": "taskItem", "attrs": {"state": "DONE"}, "content": [_text("ship")]}
                ],
            },
            {"type": "blockCard", "attrs": {"url": "https://x.example/card"}},
            {"type": "someFutureNode", "content": [_text("still read")]},
        ],
    }
    assert adf_text(doc) == (
        "### Fix\n\n"
        "See the guide (https://x.example/g)\n@Ada 😄 [BLOCKED] on 2025-01-01\n\n"
        "1. first\n2. second\n  - nested\n\n"
        "```\nmake  fix\n```\n\n"
        "> quoted\n\n"
        "Key | Value\nmode | calm\n\n"
        "Note\n\n"
        "- [x] ship\n\n"
        "https://x.example/card\n\n"
        "still read"
    )


def test_adf_odd_values_read_as_nothing_or_themselves() -> None:
    assert adf_text(None) == ""
    assert adf_text("plain words ") == "plain words"
    assert (
        adf_text({"type": "doc", "content": [{"type": "date", "attrs": {"timestamp": "x"}}]}) == ""
    )


def test_wiki_markup_reads_as_plain_text_and_leaves_code_alone() -> None:
    markup = (
        "h1. Title\n"
        "Some *bold*, _italic_, -struck-, +under+ and {{mono}} words; snake_case_name stays.\n"
        "* one\n** two\n# three\n"
        "bq. a quote\n"
        "{quote}a longer quote{quote}\n"
        "{color:red}red{color} [a link|https://x.example] [https://y.example] [~jdoe]\n"
        "line\\\\break\n"
        "----\n"
        "{noformat}*kept* as _is_{noformat}\n"
        "!diagram.png!\n"
        "||H1||H2||\n|a|b|"
    )
    assert wiki_text(markup) == (
        "# Title\n"
        "Some bold, italic, struck, under and mono words; snake_case_name stays.\n"
        "- one\n  - two\n- three\n"
        "> a quote\n"
        "a longer quote\n"
        "red a link (https://x.example) https://y.example @jdoe\n"
        "line\nbreak\n\n"
        "```\n*kept* as _is_\n```\n\n"
        "H1 | H2\na | b"
    )
    assert wiki_text(None) == ""

"""What the OpenAPI document shows of Gurubase's answer shapes: API v1 and the widget both answer
in them, so both doors' documentation takes its examples from here."""

ANSWER_EXAMPLE = {
    "slug": "how-do-i-create-a-virtual-environment",
    "content": "Create one with `python -m venv myenv` [1].",
    "question": "How do I create a virtual environment?",
    "date_updated": "2025-01-01T12:00:00+00:00",
    "trust_score": 82,
    "references": [
        {
            "link": "https://docs.python.org/3/library/venv.html",
            "icon": "web",
            "title": "Virtual environments",
        }
    ],
    "session_id": "0b7e1f7c-5d3a-4a8e-9a8e-2f0c1d2e3f40",
}


# Gurubase's answer stream (`answer.markdown_stream`): the API's, and the widget's.
MARKDOWN_STREAM = {
    "description": "Not Server-Sent Events despite the media type (Gurubase's): the raw markdown"
    " answer as it is written, its first line `# <question>`."
}

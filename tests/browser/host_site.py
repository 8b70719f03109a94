"""The host page that embeds the widget (served from its own port by `PageServer`)."""

from html import escape


def embed_page(*, script_src: str, attrs: dict[str, str], body: str = "") -> str:
    data = " ".join(f'{name}="{escape(value)}"' for name, value in attrs.items())
    # The host's own CSS aims at everything the widget might use; the shadow root keeps it out.
    return (
        "<!doctype html><html><head><meta charset='utf-8'><title>Docs</title>"
        "<style>button, div, p, textarea { display: none !important; color: red; }</style>"
        f"</head><body><h1>Host docs</h1>{body}"
        f'<script src="{escape(script_src)}" {data}></script></body></html>'
    )

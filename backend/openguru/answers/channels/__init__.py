"""The one ask path every channel takes: `prepare.ask_prepare` (the guru, who may ask it, the
session, the limits, the `AskRequest`), then the engine, then one small encoder per channel
that writes its events the way that channel speaks.

Encoders: `sse` (the Q&A site's stream), `site_json` (the site's whole answer), `markdown`
(API v1's and the widget's raw markdown stream), `api` (API v1's answer in Gurubase's shape),
`chat` (OpenAI's chat/completions), `mcp` (an agent's whole answer), `widget`, and for the bots
`bots` with `slack` and `discord`. A channel that answers on GitHub (issues, discussions) adds
a row to `rules.RULES` and an encoder module here; its door lives with its integration.

The doors (the views of the site, API v1, MCP and the widget, the bots' handlers) stay above:
they read their own credential and body, name the `Asker`, and pass `providers_for`.
"""

"""The Slack and Discord bots: both answer through `answers.engine.ask.ask`, in threads that map to
binges, streaming the answer into one message they edit."""

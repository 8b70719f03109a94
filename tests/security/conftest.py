"""The fixtures the probes share with the tests of what they probe: the indexed guru, the ASGI
app under uvicorn per test (the one the UI's server points at is in tests/live_servers.py), the
GitHub repository source, and the Slack integration."""

from tests.answers.conftest import python_guru  # noqa: F401
from tests.answers.test_streaming_http import live_asgi  # noqa: F401
from tests.api_v1.test_github_webhook import guru, repo, source  # noqa: F401
from tests.bots.conftest import slack, slack_api  # noqa: F401

"""What a refused question is told: that there is no answer, and why, in words a user can act on.

Most refusals mean the sources don't cover the question. A guru that has not finished reading
its first sources, or has none, refuses every question; saying so tells the user to come back
instead of rephrasing.
"""

from openguru.gurus.models import Guru
from openguru.sources.selectors import guru_reading_state

REFUSAL = (
    "I don't know. The sources this Guru has read don't cover that question, so I won't guess. "
    "Try rephrasing it, or ask about something in its documentation."
)
STILL_READING = (
    "I can't answer yet: this Guru is still reading its sources. Ask again in a minute or two."
)
NO_SOURCES = (
    "I can't answer yet: this Guru has no sources to learn from. Ask again once its "
    "documentation has been added."
)


def refusal_message(*, guru: Guru) -> str:
    """Blocking (one query): run it in a worker thread. Only refusals pay for it."""
    state = guru_reading_state(guru=guru)
    return {"reading": STILL_READING, "empty": NO_SOURCES}.get(state, REFUSAL)

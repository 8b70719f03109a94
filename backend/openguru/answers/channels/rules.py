"""What tells the channels apart, in one table: everything else about an ask is the same rule
on every channel (`prepare.py`)."""

from dataclasses import dataclass
from enum import StrEnum

from openguru.answers.models import Question


class Channel(StrEnum):
    SITE = "site"  # the Q&A site's stream and JSON endpoints
    API = "api"  # API v1's answer (JSON or markdown stream)
    CHAT = "chat"  # API v1's OpenAI-compatible chat/completions
    MCP = "mcp"  # the MCP server's ask tools
    WIDGET = "widget"
    SLACK = "slack"
    DISCORD = "discord"
    GITHUB = "github"  # the GitHub App bot's replies in issues and discussions
    TEAMS = "teams"
    GENERATED = "generated"  # the questions made from a source after its ingestion


@dataclass(frozen=True)
class Rules:
    source: str  # Question.Source: what analytics count the ask as
    short_answer: bool = False  # the default; API v1's body may choose
    # Ask within the web process's answer slots (`answers/engine/admission.py`). The bots answer
    # from their own processes (a Celery task per event, the Discord listener), not a web one.
    shed_load: bool = True
    # False: every ask is answered anew and saved as its own question (a chat bot's analytics
    # count each ask, and each thread's first answer roots that thread's binge).
    reuse_answers: bool = True


RULES: dict[Channel, Rules] = {
    Channel.SITE: Rules(source=Question.Source.USER),
    Channel.API: Rules(source=Question.Source.API, short_answer=True),
    Channel.CHAT: Rules(source=Question.Source.API),
    Channel.MCP: Rules(source=Question.Source.API),
    Channel.WIDGET: Rules(source=Question.Source.WIDGET, short_answer=True),
    Channel.SLACK: Rules(source=Question.Source.SLACK, shed_load=False, reuse_answers=False),
    Channel.DISCORD: Rules(source=Question.Source.DISCORD, shed_load=False, reuse_answers=False),
    Channel.GITHUB: Rules(source=Question.Source.GITHUB, shed_load=False, reuse_answers=False),
    Channel.TEAMS: Rules(source=Question.Source.TEAMS, shed_load=False, reuse_answers=False),
    # Asked by a worker after ingestion, each made sure to be new before it is asked.
    Channel.GENERATED: Rules(
        source=Question.Source.GENERATED, shed_load=False, reuse_answers=False
    ),
}

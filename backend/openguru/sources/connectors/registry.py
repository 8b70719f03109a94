"""Which connector reads which kind of data source (the other kinds have a plain loader,
`loaders/registry.py`)."""

from openguru.sources.connectors.base import ConnectorFactory, ConnectorLoader
from openguru.sources.connectors.confluence import ConfluenceConnector
from openguru.sources.connectors.github_issues import GitHubIssuesConnector
from openguru.sources.connectors.jira import JiraConnector
from openguru.sources.connectors.zendesk import ZendeskConnector
from openguru.sources.loaders.base import Loader

_CONNECTORS: dict[str, ConnectorFactory] = {
    "github_issues": GitHubIssuesConnector,
    "confluence": ConfluenceConnector,
    "jira": JiraConnector,
    "zendesk": ZendeskConnector,
}


def connector_loader_for(source_type: str) -> Loader | None:
    factory = _CONNECTORS.get(source_type)
    return ConnectorLoader(factory) if factory is not None else None

from django.urls import path

from openguru.integrations.apikeys.apis import (
    APIKeyDetailApi,
    APIKeyListApi,
)
from openguru.integrations.bots.apis import (
    IntegrationDetailApi,
    IntegrationListApi,
    IntegrationTestApi,
)
from openguru.integrations.bots.github_app_apis import (
    GitHubAppDetailApi,
    GitHubAppListApi,
    GitHubAppWebhookApi,
)
from openguru.integrations.bots.slack_api import SlackEventsApi
from openguru.integrations.bots.slack_oauth_apis import SlackInstallApi, SlackOAuthApi
from openguru.integrations.bots.teams_api import TeamsManifestApi, TeamsMessagesApi
from openguru.integrations.widget.admin_apis import (
    WidgetIdDetailApi,
    WidgetIdListApi,
    WidgetSecretApi,
)
from openguru.integrations.widget.apis import (
    FollowUpExamplesApi,
    RecordVoteApi,
    WidgetBingeApi,
    WidgetGuruApi,
)
from openguru.integrations.widget.ask import widget_ask

urlpatterns = [
    path("api-keys/", APIKeyListApi.as_view(), name="api-key-list"),
    path("api-keys/<int:key_id>/", APIKeyDetailApi.as_view(), name="api-key-detail"),
    path("gurus/<slug:slug>/widget-ids/", WidgetIdListApi.as_view(), name="widget-id-list"),
    path(
        "gurus/<slug:slug>/widget-ids/<int:widget_id>/",
        WidgetIdDetailApi.as_view(),
        name="widget-id-detail",
    ),
    path(
        "gurus/<slug:slug>/widget-ids/<int:widget_id>/secret/",
        WidgetSecretApi.as_view(),
        name="widget-id-secret",
    ),
    path("gurus/<slug:slug>/integrations/", IntegrationListApi.as_view(), name="integration-list"),
    path(
        "gurus/<slug:slug>/integrations/<int:integration_id>/",
        IntegrationDetailApi.as_view(),
        name="integration-detail",
    ),
    path(
        "gurus/<slug:slug>/integrations/<int:integration_id>/test/",
        IntegrationTestApi.as_view(),
        name="integration-test",
    ),
    path(
        "gurus/<slug:slug>/integrations/slack/install/",
        SlackInstallApi.as_view(),
        name="slack-install",
    ),
    path(
        "gurus/<slug:slug>/integrations/github/",
        GitHubAppListApi.as_view(),
        name="github-app-list",
    ),
    path(
        "gurus/<slug:slug>/integrations/<int:integration_id>/github/",
        GitHubAppDetailApi.as_view(),
        name="github-app-detail",
    ),
    path("github/app/webhook/", GitHubAppWebhookApi.as_view(), name="github-app-webhook"),
    path(
        "gurus/<slug:slug>/integrations/<int:integration_id>/teams/manifest/",
        TeamsManifestApi.as_view(),
        name="teams-manifest",
    ),
    path("slack/events/", SlackEventsApi.as_view(), name="slack-events"),
    path("teams/messages/", TeamsMessagesApi.as_view(), name="teams-messages"),
    path("slack/oauth/", SlackOAuthApi.as_view(), name="slack-oauth"),
    # Gurubase's widget protocol: its widget calls these under its data-base-url (…/api).
    path("widget/guru/", WidgetGuruApi.as_view(), name="widget-guru"),
    path("widget/ask/", widget_ask, name="widget-ask"),
    path("widget/binge/", WidgetBingeApi.as_view(), name="widget-binge"),
    path(
        "<slug:guru_slug>/follow_up/examples/",
        FollowUpExamplesApi.as_view(),
        name="widget-follow-up-examples",
    ),
    path("<slug:guru_slug>/record_vote/", RecordVoteApi.as_view(), name="widget-record-vote"),
]

from django.apps import AppConfig


class IntegrationsConfig(AppConfig):
    name = "openguru.integrations"
    label = "integrations"

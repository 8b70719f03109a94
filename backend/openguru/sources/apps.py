from django.apps import AppConfig


class SourcesConfig(AppConfig):
    name = "openguru.sources"
    label = "sources"

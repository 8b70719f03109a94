from django.apps import AppConfig


class CoreConfig(AppConfig):
    name = "openguru.core"
    label = "core"

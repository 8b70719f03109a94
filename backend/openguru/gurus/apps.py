from django.apps import AppConfig


class GurusConfig(AppConfig):
    name = "openguru.gurus"
    label = "gurus"

from django.apps import AppConfig


class ApiV1Config(AppConfig):
    name = "openguru.api_v1"
    label = "api_v1"
    verbose_name = "Public REST API v1"

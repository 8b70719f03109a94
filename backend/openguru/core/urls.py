from django.urls import path

from openguru.core.apis import HealthApi

urlpatterns = [
    path("health/", HealthApi.as_view(), name="health"),
]

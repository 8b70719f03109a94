from django.urls import path
from drf_spectacular.views import SpectacularAPIView, SpectacularSwaggerView

from openguru.core.apis import HealthApi

urlpatterns = [
    path("health/", HealthApi.as_view(), name="health"),
    # The OpenAPI document and Swagger UI: public, no credentials (SPECTACULAR_SETTINGS).
    path("schema/", SpectacularAPIView.as_view(), name="openapi-schema"),
    path("docs/", SpectacularSwaggerView.as_view(url_name="openapi-schema"), name="openapi-docs"),
]

from django.urls import path
from drf_spectacular.views import SpectacularAPIView, SpectacularSwaggerView

from openguru.core.apis import HealthApi
from openguru.core.session_apis import LoginApi, LogoutApi, SessionApi
from openguru.core.settings_apis import SettingsApi

urlpatterns = [
    path("health/", HealthApi.as_view(), name="health"),
    path("auth/session/", SessionApi.as_view(), name="auth-session"),
    path("auth/login/", LoginApi.as_view(), name="auth-login"),
    path("auth/logout/", LogoutApi.as_view(), name="auth-logout"),
    path("settings/", SettingsApi.as_view(), name="settings"),
    # The OpenAPI document and Swagger UI: public, no credentials (SPECTACULAR_SETTINGS).
    path("schema/", SpectacularAPIView.as_view(), name="openapi-schema"),
    path("docs/", SpectacularSwaggerView.as_view(url_name="openapi-schema"), name="openapi-docs"),
]

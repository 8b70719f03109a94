from django.urls import path
from drf_spectacular.views import SpectacularAPIView, SpectacularSwaggerView

from openguru.core.session_apis import LoginApi, LogoutApi, SessionApi

urlpatterns = [
    path("auth/session/", SessionApi.as_view(), name="auth-session"),
    path("auth/login/", LoginApi.as_view(), name="auth-login"),
    path("auth/logout/", LogoutApi.as_view(), name="auth-logout"),
    # The OpenAPI document and Swagger UI: public, no credentials (SPECTACULAR_SETTINGS).
    path("schema/", SpectacularAPIView.as_view(), name="openapi-schema"),
    path("docs/", SpectacularSwaggerView.as_view(url_name="openapi-schema"), name="openapi-docs"),
]

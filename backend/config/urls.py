from django.contrib import admin
from django.urls import include, path

urlpatterns = [
    path("admin/", admin.site.urls),
    path("api/", include("openguru.core.urls")),
    path("api/", include("openguru.gurus.urls")),
    path("api/", include("openguru.sources.urls")),
    path("api/", include("openguru.answers.urls")),
]

handler404 = "openguru.core.apis.not_found"
handler500 = "openguru.core.apis.server_error"

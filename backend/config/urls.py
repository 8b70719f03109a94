from django.conf import settings
from django.contrib import admin
from django.urls import URLPattern, URLResolver, include, path, re_path
from django.views.static import serve

urlpatterns: list[URLPattern | URLResolver] = [
    path("admin/", admin.site.urls),
    path("api/", include("openguru.core.urls")),
    path("api/", include("openguru.gurus.urls")),
    path("api/", include("openguru.sources.urls")),
    path("api/", include("openguru.answers.urls")),
    path("api/", include("openguru.integrations.urls")),
    path("api/", include("openguru.api_v1.urls")),
]

if settings.SERVE_MEDIA:
    # Embedded mode serves uploaded PDFs itself; production lets nginx serve /media/.
    urlpatterns.append(
        re_path(r"^media/(?P<path>.*)$", serve, {"document_root": settings.MEDIA_ROOT})
    )

handler404 = "openguru.core.apis.not_found"
handler500 = "openguru.core.apis.server_error"

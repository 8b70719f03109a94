from django.conf import settings
from django.contrib import admin
from django.contrib.staticfiles.views import serve as serve_static
from django.urls import URLPattern, URLResolver, include, path, re_path
from openguru.core.metrics_api import metrics_view
from openguru.sources.file_apis import SourceFileApi
from openguru.widget_assets import widget_js

# The site is the UI, on its own origin: the admin's "View site" goes there, not to the API.
admin.site.site_url = settings.SITE_URL

urlpatterns: list[URLPattern | URLResolver] = [
    path("admin/", admin.site.urls),
    path("api/", include("openguru.core.urls")),
    path("api/", include("openguru.gurus.urls")),
    path("api/", include("openguru.sources.urls")),
    path("api/", include("openguru.answers.urls")),
    path("api/", include("openguru.integrations.urls")),
    path("api/", include("openguru.api_v1.urls")),
    path("api/", include("openguru.evaluation.urls")),
    path("api/", include("openguru.ops.urls")),
    path("api/", include("openguru.accounts.urls")),
    path("api/", include("openguru.core.audit.urls")),
    path("widget.js", widget_js, name="widget-js"),
    # Prometheus; off unless METRICS_TOKEN is set (openguru/core/metrics_api.py).
    path("metrics", metrics_view, name="metrics"),
]

if settings.SERVE_MEDIA:
    # Uploaded files only through a view that checks who may read them (private PDFs are for
    # admins); behind nginx it hands the transfer back with X-Accel-Redirect.
    urlpatterns.append(
        re_path(r"^media/(?P<path>sources/.+)$", SourceFileApi.as_view(), name="source-file")
    )

if settings.SERVE_STATIC:
    # uvicorn serves no files itself (runserver's static handling only exists under runserver),
    # so Django serves the admin's and the API docs' assets (Swagger UI, from
    # drf-spectacular-sidecar) straight from the apps through the staticfiles finders, no
    # collectstatic needed. In production nginx serves the collected copies and asks Django
    # only for what is missing there.
    urlpatterns.append(
        re_path(
            rf"^{settings.STATIC_URL.strip('/')}/(?P<path>.*)$", serve_static, {"insecure": True}
        )
    )

handler404 = "openguru.core.apis.not_found"
handler500 = "openguru.core.apis.server_error"

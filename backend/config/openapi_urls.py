"""The URLconf the OpenAPI document is generated from (never routed): the site's own routes,
plus, at the path of each async view, the generated stand-in that documents it
(openguru/core/openapi_stand_ins.py). drf-spectacular sees DRF views only."""

from django.urls import URLPattern, URLResolver
from openguru.core.openapi_stand_ins import stand_in_patterns

from config.urls import urlpatterns as site_urlpatterns

urlpatterns: list[URLPattern | URLResolver] = [
    *site_urlpatterns,
    *stand_in_patterns(site_urlpatterns),
]

from django.urls import path

from openguru.integrations.apis import APIKeyDetailApi, APIKeyListApi

urlpatterns = [
    path("api-keys/", APIKeyListApi.as_view(), name="api-key-list"),
    path("api-keys/<int:key_id>/", APIKeyDetailApi.as_view(), name="api-key-detail"),
]

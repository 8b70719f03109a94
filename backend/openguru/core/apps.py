from django.apps import AppConfig


class CoreConfig(AppConfig):
    name = "openguru.core"
    label = "core"

    def ready(self) -> None:
        from django.contrib import admin

        from openguru.core import sign_in  # noqa: F401  (counts failed sign-ins)
        from openguru.core.admin_sign_in import ThrottledAdminAuthenticationForm

        admin.site.login_form = ThrottledAdminAuthenticationForm

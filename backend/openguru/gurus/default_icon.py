"""A guru's default icon: its initial on its colour, as SVG, for wherever a guru has no icon of
its own. Channels that draw `icon_url` as an image (Gurubase's widget among them) then show a
picture instead of a broken one."""

import base64
import hashlib
import re
from xml.sax.saxutils import escape

from django.http import HttpRequest
from django.urls import reverse

from openguru.gurus.models import Guru, Visibility

FALLBACK_COLOR = "#1f6feb"
_HEX_COLOR = re.compile(r"#(?:[0-9a-fA-F]{3}|[0-9a-fA-F]{6})")


def _color(value: str) -> str:
    # The colour is an admin's free text: only a hex colour reaches the markup.
    return value if _HEX_COLOR.fullmatch(value) else FALLBACK_COLOR


def guru_default_icon_svg(*, guru: Guru) -> str:
    initial = escape((guru.name.strip() or guru.slug or "?")[0].upper())
    return (
        '<svg xmlns="http://www.w3.org/2000/svg" width="64" height="64" viewBox="0 0 64 64">'
        f'<rect width="64" height="64" rx="14" fill="{_color(guru.base_color)}"/>'
        '<text x="32" y="43" font-family="system-ui, -apple-system, Segoe UI, sans-serif" '
        f'font-size="32" font-weight="700" text-anchor="middle" fill="#fff">{initial}</text>'
        "</svg>"
    )


def guru_icon_url(*, guru: Guru, request: HttpRequest) -> str:
    """The guru's own icon, else its default one (versioned by what it is drawn from). A
    private guru's default icon is inlined: its address answers no one without credentials,
    and an image request carries none."""
    if guru.icon_url:
        return guru.icon_url
    if guru.visibility != Visibility.PUBLIC:
        svg = base64.b64encode(guru_default_icon_svg(guru=guru).encode()).decode()
        return f"data:image/svg+xml;base64,{svg}"
    path = reverse("guru-default-icon", kwargs={"slug": guru.slug})
    version = hashlib.sha256(f"{guru.name}\0{guru.base_color}".encode()).hexdigest()[:8]
    return request.build_absolute_uri(f"{path}?v={version}")

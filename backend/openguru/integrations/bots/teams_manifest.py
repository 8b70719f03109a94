"""A Teams bot's app package, what an admin uploads to Teams (Apps → Manage your apps → Upload
an app): manifest.json with the bot's app id and scopes, and its two icons (color.png, 192x192
in the guru's colour; outline.png, 32x32 white on transparent), zipped."""

import io
import json
import re
import struct
import zipfile
import zlib
from collections.abc import Callable
from typing import Any
from urllib.parse import urlsplit

from openguru.integrations.models import Integration

MANIFEST_VERSION = "1.17"
SCHEMA = "https://developer.microsoft.com/en-us/json-schemas/teams/v1.17/MicrosoftTeams.schema.json"
_HEX = re.compile(r"^#?([0-9a-fA-F]{6})$")
_FALLBACK_COLOR = "1f6feb"

Pixel = Callable[[int, int], tuple[int, int, int, int]]


def _png(size: int, pixel: Pixel) -> bytes:
    """An RGBA PNG of `size`x`size` (each row filter-free), made without an imaging library."""
    rows = b"".join(
        b"\x00" + b"".join(bytes(pixel(x, y)) for x in range(size)) for y in range(size)
    )

    def chunk(kind: bytes, data: bytes) -> bytes:
        body = kind + data
        return struct.pack(">I", len(data)) + body + struct.pack(">I", zlib.crc32(body))

    header = struct.pack(">IIBBBBB", size, size, 8, 6, 0, 0, 0)
    return (
        b"\x89PNG\r\n\x1a\n"
        + chunk(b"IHDR", header)
        + chunk(b"IDAT", zlib.compress(rows))
        + chunk(b"IEND", b"")
    )


def _color(integration: Integration) -> str:
    found = _HEX.match(integration.guru.base_color or "")
    return found.group(1) if found else _FALLBACK_COLOR


def _icons(color: str) -> dict[str, bytes]:
    red, green, blue = (int(color[i : i + 2], 16) for i in (0, 2, 4))

    def outline(x: int, y: int) -> tuple[int, int, int, int]:
        # A white ring: Teams shows the outline icon on its own colours.
        distance = ((x - 15.5) ** 2 + (y - 15.5) ** 2) ** 0.5
        return (255, 255, 255, 255 if 9 <= distance <= 13 else 0)

    return {
        "color.png": _png(192, lambda x, y: (red, green, blue, 255)),
        "outline.png": _png(32, outline),
    }


def teams_manifest(*, integration: Integration, site_url: str) -> dict[str, Any]:
    """The app's manifest; `site_url` (https in production) is this server's public address,
    which Teams shows as the developer's site."""
    guru = integration.guru
    name = guru.name[:30]
    host = urlsplit(site_url).hostname or ""
    return {
        "$schema": SCHEMA,
        "manifestVersion": MANIFEST_VERSION,
        "version": "1.0.0",
        "id": integration.external_id,
        "developer": {
            "name": (integration.workspace_name or guru.name)[:32],
            "websiteUrl": site_url,
            "privacyUrl": site_url,
            "termsOfUseUrl": site_url,
        },
        "name": {"short": name, "full": f"{guru.name} guru"[:100]},
        "description": {
            "short": f"Answers questions about {guru.name}, with sources."[:80],
            "full": (
                f"Mention {name} in a channel or chat, or message it directly, to ask about "
                f"{guru.name}. It answers from the guru's sources, lists them, and says how "
                "far to trust the answer; follow-ups in the same thread continue it."
            )[:4000],
        },
        "icons": {"color": "color.png", "outline": "outline.png"},
        "accentColor": f"#{_color(integration)}",
        "bots": [
            {
                "botId": integration.external_id,
                "scopes": ["personal", "team", "groupChat"],
                "supportsFiles": False,
                "isNotificationOnly": False,
            }
        ],
        "permissions": ["identity", "messageTeamMembers"],
        "validDomains": [host] if host else [],
    }


def teams_app_package(*, integration: Integration, site_url: str) -> bytes:
    """The zip Teams takes: the manifest and its icons at the top level."""
    manifest = teams_manifest(integration=integration, site_url=site_url)
    buffer = io.BytesIO()
    with zipfile.ZipFile(buffer, "w", zipfile.ZIP_DEFLATED) as package:
        package.writestr("manifest.json", json.dumps(manifest, indent=2))
        for name, data in _icons(_color(integration)).items():
            package.writestr(name, data)
    return buffer.getvalue()

"""The anchor GitHub gives a heading: what a chunk's link and a FAQ entry's slug point at."""

import re


def github_slug(heading: str) -> str:
    return re.sub(r"[^\w\- ]", "", heading.strip().lower()).replace(" ", "-")

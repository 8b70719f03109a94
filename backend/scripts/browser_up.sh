#!/usr/bin/env bash
# The widget's browser tests and its bench drive Debian's Chromium (Playwright's own browser
# downloads are never used): install it when this machine lacks it. Idempotent.
set -euo pipefail

command -v chromium >/dev/null || (apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq chromium)

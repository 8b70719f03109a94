#!/usr/bin/env bash
# The deployment tests run the repository's nginx configuration in Debian's nginx, one process
# per test with its own prefix and port. Install it when this machine lacks it. Idempotent.
set -euo pipefail

[ -x /usr/sbin/nginx ] && exit 0
# Install without starting Debian's nginx service (it would take port 80): invoke-rc.d asks
# policy-rc.d, and 101 means "not now".
policy=/usr/sbin/policy-rc.d
if [ ! -e "$policy" ]; then
  printf '#!/bin/sh\nexit 101\n' > "$policy"
  chmod +x "$policy"
  trap 'rm -f "$policy"' EXIT
fi
apt-get update -qq
DEBIAN_FRONTEND=noninteractive apt-get install -y -qq nginx

#!/usr/bin/env bash
# Installs Debian's Chromium (/usr/bin/chromium) for the browser tests (npm run test:browser) when it
# is missing. Needs root or passwordless sudo (CI runs as root); does nothing when it is installed.
set -euo pipefail
if [ -x /usr/bin/chromium ]; then
  echo "chromium: $(/usr/bin/chromium --version 2>/dev/null || echo present)"
  exit 0
fi
as_root=()
if [ "$(id -u)" -ne 0 ]; then
  if command -v sudo >/dev/null 2>&1; then as_root=(sudo -n); else
    echo "chromium is missing and this user cannot install it: run as root: apt-get install -y chromium" >&2
    exit 1
  fi
fi
echo "== installing chromium (Debian package)"
export DEBIAN_FRONTEND=noninteractive
"${as_root[@]}" apt-get update -qq
"${as_root[@]}" apt-get install -y -qq chromium fonts-liberation >/dev/null
/usr/bin/chromium --version

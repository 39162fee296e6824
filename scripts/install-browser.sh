#!/usr/bin/env bash
# End-to-end tests drive Debian's Chromium; Japanese needs the Noto CJK fonts
# to render in screenshots; one spec puts Debian's HAProxy in front of the
# server as the TLS proxy (server-lifecycle.spec.ts). Installs what is
# missing (needs root / apt-get).
set -euo pipefail
missing=()
[ -x "${CHROMIUM_PATH:-/usr/bin/chromium}" ] || missing+=(chromium)
fc-list 2>/dev/null | grep -qi "Noto Sans CJK" || missing+=(fonts-noto-cjk)
command -v haproxy >/dev/null || missing+=(haproxy)
if [ ${#missing[@]} -gt 0 ]; then
  echo "installing ${missing[*]} from Debian's packages"
  export DEBIAN_FRONTEND=noninteractive
  apt-get update -qq
  apt-get install -y -qq --no-install-recommends "${missing[@]}" >/dev/null
fi

#!/usr/bin/env bash
# End-to-end tests drive Debian's Chromium headless shell (the browser without its own UI, a
# third less CPU a run: playwright.config.ts); Japanese needs the Noto CJK fonts
# to render in screenshots; one spec puts Debian's HAProxy in front of the
# server as the TLS proxy (server-lifecycle.spec.ts). Installs what is
# missing (needs root / apt-get).
set -euo pipefail
missing=()
if [ -n "${CHROMIUM_PATH:-}" ]; then
  [ -x "$CHROMIUM_PATH" ] || missing+=(chromium)
else
  [ -x /usr/lib/chromium/chromium-headless-shell ] || missing+=(chromium-headless-shell)
  # bench/pages.ts and the cluster test drive the full browser.
  [ -x /usr/bin/chromium ] || missing+=(chromium)
fi
fc-list 2>/dev/null | grep -qi "Noto Sans CJK" || missing+=(fonts-noto-cjk)
command -v haproxy >/dev/null || missing+=(haproxy)
if [ ${#missing[@]} -gt 0 ]; then
  echo "installing ${missing[*]} from Debian's packages"
  export DEBIAN_FRONTEND=noninteractive
  apt-get update -qq
  apt-get install -y -qq --no-install-recommends "${missing[@]}" >/dev/null
fi

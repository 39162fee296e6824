#!/usr/bin/env bash
# Runs a test command as if the clock read a given moment in Tokyo, to show that the suite passes
# at any day and hour (a weekday night, a Saturday evening, a holiday, a month's last day):
#
#   bash scripts/test-at.sh "2026-12-31 23:40" npx playwright test
#
# Every process the command starts (the test runner, the seeded app server, Chromium) sees the
# same shifted clock through libfaketime (Debian's package `faketime`), which moves time by a fixed
# offset, so the clock still runs and all processes agree. Services outside the command (the
# PostgreSQL server) keep the real time: use it for the PGlite projects and the end-to-end tests.
set -euo pipefail
if [ $# -lt 2 ]; then
  echo 'usage: bash scripts/test-at.sh "YYYY-MM-DD HH:MM" command…  (the moment in Asia/Tokyo)' >&2
  exit 2
fi
moment="$1"
shift
library=/usr/lib/x86_64-linux-gnu/faketime/libfaketime.so.1
if [ ! -e "$library" ]; then
  echo "installing faketime from Debian's packages"
  DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends faketime >/dev/null
fi
target=$(TZ=Asia/Tokyo date -d "$moment" +%s)
offset=$((target - $(date +%s)))
sign=+
[ "$offset" -lt 0 ] && sign=""
echo "clock: $(TZ=Asia/Tokyo date -d "@$target" '+%Y-%m-%d %H:%M %a') in Tokyo (offset ${offset} s)"
# A relative offset (not a start time) so that processes started later agree with the first.
# Monotonic clocks move by the same offset: left real, Chromium waits minutes on its timed waits.
export LD_PRELOAD="$library${LD_PRELOAD:+:$LD_PRELOAD}"
export FAKETIME="${sign}${offset}"
exec "$@"

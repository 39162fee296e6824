#!/usr/bin/env bash
# `npm test`: every check CI runs, in order, stopping at the first failure,
# then each phase's wall time (issue 38 §5: the whole `.ci/run` stays under
# 15 minutes on CI's 2-core machine; bench/README.md "Test suite time").
# .ci/run passes the phases it ran before (npm install) in TEST_PHASES_BEFORE,
# lines of "name seconds", so the table covers the whole run.
set -euo pipefail
cd "$(dirname "$0")/.."
phases=()
[ -n "${TEST_PHASES_BEFORE:-}" ] && mapfile -t phases <<<"$TEST_PHASES_BEFORE"
started=$SECONDS
current=""
current_start=0
report() {
  local status=${1:-$?}
  echo
  echo "Phase times ($(date -u +%Y-%m-%dT%H:%MZ), load average $(cut -d' ' -f1-3 /proc/loadavg)):"
  local line
  for line in "${phases[@]}"; do
    printf '  %-10s %5ss\n' $line
  done
  [ "$status" -eq 0 ] || printf '  %-10s %5ss (failed)\n' "${current:-?}" $((SECONDS - current_start))
  printf '  %-10s %5ss\n' "npm test" $((SECONDS - started))
}
trap report EXIT
phase() {
  current=$1 current_start=$SECONDS
  shift
  echo "== $current: $*"
  "$@"
  phases+=("$current $((SECONDS - current_start))")
  current=""
}
phase browser bash scripts/install-browser.sh
phase typecheck npm run typecheck
phase lint npm run lint
# The end-to-end data (300 salons, about 40 s of CPU) is seeded beside Vitest at a
# lower priority, so that Playwright's app server starts at once (tests/e2e/prepare-data.ts).
mkdir -p data
setsid -w nice -n 10 npx tsx tests/e2e/prepare-data.ts >data/e2e-prepared.txt 2>data/e2e-prepare.log &
prepare_pid=$!
# A failed phase stops the run: the seed with it (its own process group).
trap 'code=$?; kill -- -"$prepare_pid" 2>/dev/null || true; report "$code"' EXIT
wait_for_seed() { wait "$1" || { cat data/e2e-prepare.log >&2; return 1; }; }
phase vitest npm run test:unit
phase build npm run build
# First-load JavaScript per page against its budget (issue 42): reads the build's manifest, < 1 s.
phase js-budget npx tsx bench/js-budget.ts --check
phase e2e-seed wait_for_seed "$prepare_pid"
E2E_PRESEEDED=$(cat data/e2e-prepared.txt) phase playwright npm run test:e2e

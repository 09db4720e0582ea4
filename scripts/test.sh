#!/usr/bin/env bash
# The whole suite: lint, types, import layers, then pytest. Exit code 5 (no tests) is a failure
# only when nothing at all was collected.
set -uo pipefail
cd "$(dirname "$0")/.."
BIN=.venv/bin
status=0
echo "== ruff";          $BIN/ruff check . || status=1
echo "== mypy (strict on contracts/ and domain/)"; $BIN/mypy contracts domain || status=1
echo "== import layers"; $BIN/lint-imports || status=1
bash scripts/ensure-chromium.sh  # headless Chromium for tests/browser (Debian package, once)
bash scripts/ensure-prometheus.sh  # prometheus + promtool for the monitoring tests (Debian package, once)
echo "== pytest"
# The test files on two workers (pytest-xdist, a file's tests on one worker so its module
# fixtures start once): most of the suite waits on real services, browsers and clocks, so two
# workers on two cores halve the wall time.  GAMEHALL_TEST_WORKERS=0 runs it in one process.
workers="${GAMEHALL_TEST_WORKERS:-2}"
if [ "$workers" = "0" ]; then
  $BIN/python -m pytest -q "$@"
else
  $BIN/python -m pytest -q -n "$workers" --dist loadfile "$@"
fi
rc=$?
if [ $rc -eq 5 ]; then
  echo "pytest collected no tests"; rc=1
fi
[ $rc -ne 0 ] && status=$rc
exit $status

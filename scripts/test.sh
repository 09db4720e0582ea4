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
$BIN/python -m pytest -q "$@"
rc=$?
if [ $rc -eq 5 ]; then
  echo "pytest collected no tests"; rc=1
fi
[ $rc -ne 0 ] && status=$rc
exit $status

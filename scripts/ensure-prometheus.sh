#!/usr/bin/env bash
# Prometheus and promtool for the monitoring tests (tests/unit/test_alert_rules.py,
# tests/e2e/test_monitoring.py): the Debian package, installed once. Idempotent: does nothing
# when both commands exist. Exits 0 even when it cannot install; those tests then skip and say why.
set -u
if command -v prometheus >/dev/null 2>&1 && command -v promtool >/dev/null 2>&1; then
  exit 0
fi
SUDO=""
if [ "$(id -u)" -ne 0 ]; then
  if command -v sudo >/dev/null 2>&1 && sudo -n true 2>/dev/null; then
    SUDO="sudo -n"
  else
    echo "ensure-prometheus: prometheus is missing and installing it needs root; monitoring tests will skip" >&2
    exit 0
  fi
fi
if ! command -v apt-get >/dev/null 2>&1; then
  echo "ensure-prometheus: no apt-get here; install prometheus and promtool to run the monitoring tests" >&2
  exit 0
fi
echo "ensure-prometheus: installing the Debian prometheus package"
export DEBIAN_FRONTEND=noninteractive
$SUDO apt-get update -qq >/dev/null 2>&1 || true
if ! $SUDO apt-get install -y -qq --no-install-recommends prometheus >/dev/null 2>&1; then
  echo "ensure-prometheus: apt-get install prometheus failed; monitoring tests will skip" >&2
fi
exit 0

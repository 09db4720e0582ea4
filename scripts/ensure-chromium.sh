#!/usr/bin/env bash
# Headless Chromium for the browser tests (tests/browser): the Debian package, installed once.
# Idempotent: does nothing when /usr/bin/chromium exists. Exits 0 even when it cannot install
# (no root, no network); the browser tests then skip and say why.
set -u
CHROMIUM=${GAMEHALL_CHROMIUM:-/usr/bin/chromium}
if [ -x "$CHROMIUM" ]; then
  exit 0
fi
SUDO=""
if [ "$(id -u)" -ne 0 ]; then
  if command -v sudo >/dev/null 2>&1 && sudo -n true 2>/dev/null; then
    SUDO="sudo -n"
  else
    echo "ensure-chromium: $CHROMIUM is missing and installing it needs root; browser tests will skip" >&2
    exit 0
  fi
fi
if ! command -v apt-get >/dev/null 2>&1; then
  echo "ensure-chromium: no apt-get here; install Chromium at $CHROMIUM to run the browser tests" >&2
  exit 0
fi
echo "ensure-chromium: installing the Debian chromium package"
export DEBIAN_FRONTEND=noninteractive
$SUDO apt-get update -qq >/dev/null 2>&1 || true
if ! $SUDO apt-get install -y -qq chromium >/dev/null 2>&1; then
  echo "ensure-chromium: apt-get install chromium failed; browser tests will skip" >&2
fi
exit 0

#!/bin/sh
# Install Chromium for the web pages' browser tests (tests/web/test_browser.py drives it with
# Playwright for Python, launched by its path: no browser is downloaded by Playwright itself).
# Debian's chromium package, installed with apt when run as root; quiet when it is already there.
# Without it (not root, no apt) the browser tests are skipped and say why; nothing else needs it.
set -eu
for path in "${BANMEN_CHROMIUM:-}" /usr/bin/chromium /usr/bin/chromium-browser; do
  [ -n "$path" ] && [ -x "$path" ] && exit 0
done
if [ "$(id -u)" = 0 ] && command -v apt-get >/dev/null 2>&1; then
  echo "Installing Chromium (chromium) with apt-get for the browser tests..."
  export DEBIAN_FRONTEND=noninteractive
  apt-get update -qq >/dev/null
  if apt-get install -y -qq --no-install-recommends chromium >/dev/null; then
    exit 0
  fi
fi
echo "Chromium is missing: the browser tests will be skipped. As root run: apt-get install chromium" >&2
echo "(or set BANMEN_CHROMIUM to a Chromium binary)." >&2
exit 0

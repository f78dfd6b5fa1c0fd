#!/usr/bin/env bash
# The page tests (tester/tests/pages.rs) open every page the project writes in headless Chromium.
# Make sure one is installed: CHROMIUM names one, else `chromium` (or chromium-browser,
# google-chrome) on PATH; when none is and this runs as root (as CI does), install Debian's
# `chromium` with apt-get. A machine where it cannot be installed fails here, saying why: a
# missing browser is a failure, not a skipped test.
set -uo pipefail
found() {
  if [ -n "${CHROMIUM:-}" ]; then [ -x "$CHROMIUM" ] && echo "$CHROMIUM"; return; fi
  command -v chromium || command -v chromium-browser || command -v google-chrome
}
if browser=$(found); then
  echo "chromium: $browser ($("$browser" --version 2>/dev/null | head -1))"
  exit 0
fi
if [ -n "${CHROMIUM:-}" ]; then
  echo "error: CHROMIUM=$CHROMIUM is not an executable file" >&2
  exit 1
fi
if [ "$(id -u)" -ne 0 ]; then
  echo "error: no Chromium found, and only root can install it: run \`sudo apt-get install -y chromium\` (or set CHROMIUM=/path/to/chrome), then ./test.sh again" >&2
  exit 1
fi
if ! command -v apt-get >/dev/null; then
  echo "error: no Chromium found and no apt-get to install it: install Chromium (or set CHROMIUM=/path/to/chrome), then ./test.sh again" >&2
  exit 1
fi
echo "chromium: not installed; installing Debian's chromium (and a Latin font) with apt-get (once)"
export DEBIAN_FRONTEND=noninteractive
if ! { apt-get install -y --no-install-recommends chromium fonts-liberation >/tmp/chromium-apt.log 2>&1 ||
       { apt-get update >>/tmp/chromium-apt.log 2>&1 &&
         apt-get install -y --no-install-recommends chromium fonts-liberation >>/tmp/chromium-apt.log 2>&1; }; }; then
  echo "error: apt-get could not install chromium (its log: /tmp/chromium-apt.log); its last lines:" >&2
  tail -5 /tmp/chromium-apt.log >&2
  exit 1
fi
browser=$(found) || { echo "error: apt-get installed chromium but no browser is on PATH" >&2; exit 1; }
echo "chromium: installed $browser ($("$browser" --version 2>/dev/null | head -1))"

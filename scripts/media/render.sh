#!/usr/bin/env bash
# Rasterise an SVG or HTML file to PNG with headless Chromium.
# Usage: render.sh INPUT.(svg|html) OUTPUT.png WIDTH HEIGHT
set -euo pipefail
in="$1"; out="$2"; w="$3"; h="$4"
CHROMIUM="${CHROMIUM:-chromium}"
tmp="$(mktemp -d)"
trap 'rm -rf "$tmp"' EXIT
page="$tmp/page.html"
case "$in" in
  *.svg)
    { printf '<!doctype html><html><head><style>html,body{margin:0;padding:0;overflow:hidden}svg{display:block}</style></head><body>'
      cat "$in"
      printf '</body></html>'; } > "$page" ;;
  *) cp "$in" "$page" ;;
esac
"$CHROMIUM" --headless --no-sandbox --disable-gpu --disable-background-networking \
  --disable-component-update --disable-sync --no-first-run --hide-scrollbars \
  --force-device-scale-factor=1 --user-data-dir="$tmp/profile" \
  --screenshot="$out" --window-size="$w,$h" "file://$page" >/dev/null 2>&1
test -s "$out"

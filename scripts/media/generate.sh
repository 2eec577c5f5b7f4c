#!/usr/bin/env bash
# Regenerates every original media file of the site from scratch:
#   public/images/logo.svg, public/images/logo-light.svg, public/favicon.svg
#   public/images/pictures/*.webp   team portraits      480x600
#   public/images/items/*.webp      industries/tech needs 800x600
#   public/video/{home,wedo}.{webm,mp4} + *-poster.webp   1280x720, 10 s loops
#   public/images/share.png, public/icons/*.png, public/favicon.ico, public/manifest.webmanifest
#
# Requirements: bash, python3 (stdlib), node >= 18, ffmpeg (libx264, libvpx-vp9,
# libwebp, zscale), headless Chromium (set CHROMIUM=/path if not on PATH).
# Usage: scripts/media/generate.sh [images|video|all]   (default: all)
set -euo pipefail

HERE="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
ROOT="$(cd "$HERE/../.." && pwd)"
PUB="$ROOT/public"
WHAT="${1:-all}"
export CHROMIUM="${CHROMIUM:-chromium}"

for tool in python3 node ffmpeg "$CHROMIUM"; do
  command -v "$tool" >/dev/null || { echo "missing required tool: $tool" >&2; exit 1; }
done

WORK="$(mktemp -d)"
trap 'rm -rf "$WORK"' EXIT

FF=(ffmpeg -hide_banner -loglevel error -y)

# max_bytes FILE LIMIT: fail loudly if an output grows past its budget.
max_bytes() {
  local size
  size=$(stat -c %s "$1")
  if (( size > $2 )); then
    echo "ERROR: $1 is $size bytes (limit $2)" >&2
    exit 1
  fi
  printf '  %-52s %8d bytes\n' "${1#"$ROOT"/}" "$size"
}

# svg_to_webp SVG OUT.webp WIDTH HEIGHT QUALITY
svg_to_webp() {
  local png="$WORK/$(basename "$1" .svg).png"
  "$HERE/render.sh" "$1" "$png" "$3" "$4"
  "${FF[@]}" -i "$png" -frames:v 1 -c:v libwebp -quality "$5" -compression_level 6 "$2"
}

images() {
  echo "Logo and favicon"
  python3 "$HERE/logo.py" "$PUB"
  max_bytes "$PUB/images/logo.svg" 4096
  max_bytes "$PUB/images/logo-light.svg" 4096
  max_bytes "$PUB/favicon.svg" 4096

  echo "Team portraits (480x600)"
  mkdir -p "$PUB/images/pictures" "$WORK/pictures"
  python3 "$HERE/portraits.py" "$WORK/pictures"
  for svg in "$WORK"/pictures/*.svg; do
    out="$PUB/images/pictures/$(basename "$svg" .svg).webp"
    svg_to_webp "$svg" "$out" 480 600 80
    max_bytes "$out" 40960
  done

  echo "Industry and tech-need illustrations (800x600)"
  mkdir -p "$PUB/images/items" "$WORK/items"
  python3 "$HERE/items.py" "$WORK/items"
  for svg in "$WORK"/items/*.svg; do
    out="$PUB/images/items/$(basename "$svg" .svg).webp"
    svg_to_webp "$svg" "$out" 800 600 80
    max_bytes "$out" 61440
  done

  echo "Share image, app icons and web manifest"
  (cd "$ROOT" && CHROME_PATH="$(command -v "$CHROMIUM")" npx tsx scripts/media/share-image.ts)
  max_bytes "$PUB/images/share.png" 40959
  for icon in "$PUB"/icons/*.png; do max_bytes "$icon" 40959; done
  python3 "$HERE/favicon-ico.py" "$PUB/icons/icon-192.png" "$PUB/favicon.ico"
  max_bytes "$PUB/favicon.ico" 8192
}

# video NAME: render frames (16-bit RGB) -> dithered yuv420p lossless master
# -> VP9 WebM, H.264 MP4 and a WebP poster of the first frame.
VW=1280 VH=720 FPS=25 SECS=10
video() {
  local name="$1" x264crf="$2" vp9crf="$3"
  local master="$WORK/$name-master.mkv"
  local tags=(-colorspace bt709 -color_primaries bt709 -color_trc bt709 -color_range tv)
  node "$HERE/video-frames.mjs" "$name" "$VW" "$VH" "$FPS" "$SECS" |
    "${FF[@]}" -f rawvideo -pix_fmt rgb48le -s "${VW}x${VH}" -r "$FPS" -i - \
      -vf "zscale=rangein=full:primariesin=709:transferin=709:matrix=709:primaries=709:transfer=709:range=limited:dither=ordered,format=yuv420p" \
      -c:v ffv1 "${tags[@]}" "$master"

  "${FF[@]}" -i "$master" -an -c:v libvpx-vp9 -b:v 0 -crf "$vp9crf" -row-mt 1 \
    -deadline good -cpu-used 1 -g $((FPS * SECS)) "${tags[@]}" "$PUB/video/$name.webm"
  "${FF[@]}" -i "$master" -an -c:v libx264 -preset slow -crf "$x264crf" -tune grain \
    -profile:v high -pix_fmt yuv420p -g $((FPS * SECS)) "${tags[@]}" \
    -movflags +faststart "$PUB/video/$name.mp4"
  "${FF[@]}" -i "$master" -frames:v 1 -vf "scale=in_color_matrix=bt709:in_range=tv,format=rgb24" \
    -c:v libwebp -quality 82 "$PUB/video/$name-poster.webp"

  max_bytes "$PUB/video/$name.webm" 1572864
  max_bytes "$PUB/video/$name.mp4" 1572864
  max_bytes "$PUB/video/$name-poster.webp" 204800
}

videos() {
  mkdir -p "$PUB/video"
  echo "Home video (${VW}x${VH}, ${SECS}s loop)"
  video home 21 26
  echo "What We Do video (${VW}x${VH}, ${SECS}s loop)"
  video wedo 25 31
}

case "$WHAT" in
  images) images ;;
  video) videos ;;
  all) images; videos ;;
  *) echo "usage: $0 [images|video|all]" >&2; exit 2 ;;
esac
echo "Done."

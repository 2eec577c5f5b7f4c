#!/usr/bin/env python3
"""Writes the Meridian logo (light and dark-background variants) and the favicon.

The wordmark is drawn from geometric strokes (no font dependency), so the SVG
renders identically everywhere.
"""
import os
import sys

ACCENT = "#ff7300"
INK = "#1a1a1a"

out_root = sys.argv[1] if len(sys.argv) > 1 else "public"

# Mark: a globe with a single meridian, drawn as an accent-coloured lens
# across a solid disc.
CX, CY, R = 22, 26, 18
def mark(ink):
    return (
        f'<circle cx="{CX}" cy="{CY}" r="{R}" fill="{ink}"/>'
        f'<ellipse cx="{CX}" cy="{CY}" rx="6.5" ry="{R}" fill="{ACCENT}"/>'
    )

# Wordmark "Meridian" as strokes. Baseline y=40, x-height top 18, ascender 10.
WORD = (
    "M54 40V12L65 32L76 12V40"                                  # M
    "M85 29H103A9 9 0 1 0 100.4 35.4"                           # e
    "M112 40V18M112 28.5Q112 20 121.5 20"                      # r
    "M128 40V18"                                                # i
    "M155 10V40M155 29A9 9 0 1 0 155 29.01"                     # d
    "M164 40V18"                                                # i
    "M191 18V40M191 29A9 9 0 1 0 191 29.01"                     # a
    "M200 40V18M200 27A7 7 0 0 1 214 27V40"                     # n
)
DOTS = [(128, 11.5), (164, 11.5)]

def word(ink):
    dots = "".join(f'<circle cx="{x}" cy="{y}" r="2.6"/>' for x, y in DOTS)
    return (
        f'<path d="{WORD}" fill="none" stroke="{ink}" stroke-width="4" stroke-linejoin="round"/>'
        f'<g fill="{ink}">{dots}</g>'
    )

def logo(word_ink, mark_ink, title):
    return (
        '<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 222 52" width="222" height="52" '
        f'role="img" aria-label="{title}"><title>{title}</title>'
        f'{mark(mark_ink)}{word(word_ink)}</svg>\n'
    )

def favicon():
    return (
        f'<svg xmlns="http://www.w3.org/2000/svg" viewBox="{CX-R-1} {CY-R-1} {2*R+2} {2*R+2}">'
        f'{mark(INK)}</svg>\n'
    )

os.makedirs(os.path.join(out_root, "images"), exist_ok=True)
with open(os.path.join(out_root, "images", "logo.svg"), "w") as f:
    f.write(logo(INK, INK, "Meridian"))
with open(os.path.join(out_root, "images", "logo-light.svg"), "w") as f:
    f.write(logo("#ffffff", "#ffffff", "Meridian"))
with open(os.path.join(out_root, "favicon.svg"), "w") as f:
    f.write(favicon())

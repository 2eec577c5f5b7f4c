#!/usr/bin/env python3
"""Writes the industry and tech-need illustrations as 800x600 SVG files.

Usage: items.py OUT_DIR
File names match the imagePath values in content/items.json (with .svg).
generate.sh rasterises them with Chromium and converts them to WebP.
"""
import math
import os
import sys

W, H = 800, 600
ACCENT = "#ff7300"
ACCENT_SOFT = "#ffc08a"
INK = "#1a1a1a"
DARK = "#262b33"
MID = "#5b6270"
LIGHT = "#cfc7bc"
TAN = "#dcc5a6"
PAPER = "#ffffff"
BG = "#f3efe9"


def frame(inner):
    dots = (
        '<defs><pattern id="d" width="32" height="32" patternUnits="userSpaceOnUse">'
        f'<circle cx="16" cy="16" r="1.6" fill="#ddd4c8"/></pattern></defs>'
    )
    return (
        f'<svg xmlns="http://www.w3.org/2000/svg" width="{W}" height="{H}" viewBox="0 0 {W} {H}">'
        + dots
        + f'<rect width="{W}" height="{H}" fill="{BG}"/><rect width="{W}" height="{H}" fill="url(#d)"/>'
        + f'<circle cx="400" cy="300" r="236" fill="#ebe4da"/>'
        + inner
        + "</svg>\n"
    )


def gear(cx, cy, r_out, r_in, teeth, phase=0.0, fill=DARK, hole_r=0, hole_fill=BG):
    """Gear outline as a polygon with trapezoid teeth."""
    pts = []
    step = 2 * math.pi / teeth
    for i in range(teeth):
        a = phase + i * step
        for frac, r in ((0.0, r_in), (0.12, r_out), (0.38, r_out), (0.5, r_in)):
            aa = a + frac * step
            pts.append(f"{cx + r * math.cos(aa):.1f},{cy + r * math.sin(aa):.1f}")
        # root arc between teeth
        for frac in (0.62, 0.88):
            aa = a + frac * step
            pts.append(f"{cx + r_in * math.cos(aa):.1f},{cy + r_in * math.sin(aa):.1f}")
    s = f'<polygon points="{" ".join(pts)}" fill="{fill}"/>'
    if hole_r:
        s += f'<circle cx="{cx}" cy="{cy}" r="{hole_r}" fill="{hole_fill}"/>'
    return s


def ground(y, x1=110, x2=690):
    return f'<path d="M{x1} {y}H{x2}" stroke="{INK}" stroke-width="5" stroke-linecap="round"/>'


# ---------------------------------------------------------------------------
def automotive():
    gy = 446
    s = []
    # speed lines
    for y, x1, x2, c in ((300, 92, 170, ACCENT), (338, 120, 178, INK), (376, 80, 172, ACCENT_SOFT)):
        s.append(f'<path d="M{x1} {y}H{x2}" stroke="{c}" stroke-width="8" stroke-linecap="round"/>')
    # road
    s.append(ground(gy + 2, 150, 700))
    s.append(f'<path d="M220 476H680" stroke="{LIGHT}" stroke-width="5" stroke-dasharray="38 26" stroke-linecap="round"/>')
    # body
    s.append(f'<path d="M196 402V356Q198 332 228 327L306 318L352 272Q366 258 392 257H488Q514 258 530 272'
             f'L578 318L626 328Q652 336 656 362V402Q656 410 648 410H204Q196 410 196 402Z" fill="{DARK}"/>')
    # windows
    s.append(f'<path d="M322 318L362 279Q370 271 386 271H430V318Z" fill="#dfe5ec"/>')
    s.append(f'<path d="M444 271H488Q504 271 514 281L550 318H444Z" fill="#dfe5ec"/>')
    s.append(f'<path d="M338 303L372 288" stroke="{PAPER}" stroke-width="5" stroke-linecap="round" opacity="0.8"/>')
    # door lines, handle, belt line
    s.append(f'<path d="M437 320V404M330 320Q322 360 330 404M548 320Q556 360 550 404" stroke="#3d434d" stroke-width="3" fill="none"/>')
    s.append(f'<path d="M452 336H472M346 336H366" stroke="#8a919c" stroke-width="4" stroke-linecap="round"/>')
    # lights
    s.append(f'<path d="M640 338H654V356H634Q630 346 640 338Z" fill="{ACCENT}"/>')
    s.append(f'<rect x="196" y="344" width="12" height="18" rx="3" fill="#c2410c"/>')
    # wheels with arches
    for wx in (272, 572):
        s.append(f'<circle cx="{wx}" cy="404" r="56" fill="{BG}"/>')
        s.append(f'<circle cx="{wx}" cy="404" r="46" fill="{INK}"/>')
        s.append(f'<circle cx="{wx}" cy="404" r="26" fill="{BG}" stroke="{ACCENT}" stroke-width="8"/>')
        for k in range(5):
            a = k * 2 * math.pi / 5 - math.pi / 2
            s.append(f'<path d="M{wx} 404L{wx + 22 * math.cos(a):.1f} {404 + 22 * math.sin(a):.1f}" stroke="{MID}" stroke-width="4"/>')
        s.append(f'<circle cx="{wx}" cy="404" r="8" fill="{INK}"/>')
    return frame("".join(s))


def construction():
    gy = 480
    s = [ground(gy)]
    # building frame under construction (right)
    cols = (430, 520, 610)
    for x in cols:
        s.append(f'<rect x="{x - 8}" y="346" width="16" height="{gy - 346}" fill="{DARK}"/>')
    for y in (346, 412):
        s.append(f'<rect x="414" y="{y - 8}" width="212" height="16" fill="{DARK}"/>')
    s.append(f'<path d="M438 420L512 472M512 420L438 472" stroke="{MID}" stroke-width="4"/>')
    s.append(f'<rect x="528" y="420" width="74" height="52" fill="{TAN}"/>')
    # crane mast
    mx1, mx2, top = 236, 274, 150
    s.append(f'<path d="M{mx1} {gy}V{top}M{mx2} {gy}V{top}" stroke="{INK}" stroke-width="6"/>')
    zig = [f"M{mx1} {gy}"]
    y = gy
    left = True
    while y - 38 >= top:
        y -= 38
        zig.append(f"L{mx2 if left else mx1} {y}")
        left = not left
    s.append(f'<path d="{"".join(zig)}" fill="none" stroke="{INK}" stroke-width="3.5"/>')
    s.append(f'<rect x="206" y="{gy - 18}" width="98" height="18" fill="{DARK}"/>')
    # jib and counter-jib
    jy1, jy2 = 132, 152
    s.append(f'<path d="M140 {jy1}H660M140 {jy2}H660" stroke="{INK}" stroke-width="5"/>')
    zz = [f"M140 {jy2}"]
    x = 140
    up = True
    while x + 24 <= 660:
        x += 24
        zz.append(f"L{x} {jy1 if up else jy2}")
        up = not up
    s.append(f'<path d="{"".join(zz)}" fill="none" stroke="{INK}" stroke-width="3"/>')
    # apex and ties
    s.append(f'<path d="M{mx1} {jy1}L255 74L{mx2} {jy1}M255 74L640 {jy1}M255 74L150 {jy1}" fill="none" stroke="{INK}" stroke-width="3.5"/>')
    # counterweight and cab
    s.append(f'<rect x="146" y="152" width="52" height="40" fill="{MID}"/>')
    s.append(f'<path d="M{mx1 - 6} 152H{mx2 + 26}V196H{mx1 - 6}Z" fill="{ACCENT}"/>')
    s.append(f'<rect x="{mx2 - 2}" y="160" width="20" height="18" fill="#ffe2c7"/>')
    # trolley, cable, hook and hanging beam
    tx = 520
    s.append(f'<rect x="{tx - 16}" y="152" width="32" height="12" fill="{DARK}"/>')
    s.append(f'<path d="M{tx - 5} 164V258M{tx + 5} 164V258" stroke="{INK}" stroke-width="2.5"/>')
    s.append(f'<path d="M{tx} 258V266Q{tx} 278 {tx + 10} 276" fill="none" stroke="{INK}" stroke-width="5" stroke-linecap="round"/>')
    s.append(f'<path d="M{tx} 268L{tx - 62} 292M{tx} 268L{tx + 62} 292" stroke="{INK}" stroke-width="2.5"/>')
    s.append(f'<rect x="{tx - 80}" y="292" width="160" height="8" fill="{ACCENT}"/>')
    s.append(f'<rect x="{tx - 80}" y="310" width="160" height="8" fill="{ACCENT}"/>')
    s.append(f'<rect x="{tx - 80}" y="298" width="160" height="14" fill="#e06500"/>')
    s.append(f'<rect x="{tx - 80}" y="302" width="160" height="6" fill="{ACCENT}"/>')
    return frame("".join(s))


def ecommerce():
    s = []
    # parcels (behind the basket)
    s.append(f'<rect x="282" y="156" width="132" height="150" rx="4" fill="{TAN}"/>')
    s.append(f'<rect x="336" y="156" width="24" height="150" fill="#c9ad88"/>')
    s.append(f'<rect x="404" y="196" width="150" height="110" rx="4" fill="{ACCENT}"/>')
    s.append(f'<rect x="466" y="196" width="24" height="110" fill="#e06500"/>')
    s.append(f'<rect x="356" y="96" width="96" height="80" rx="4" fill="{DARK}"/>')
    s.append(f'<rect x="394" y="96" width="20" height="80" fill="{MID}"/>')
    # basket
    s.append(f'<path d="M240 244H612L572 384H268Z" fill="{BG}" fill-opacity="0.55"/>')
    s.append(f'<path d="M156 190H214L262 404H574" fill="none" stroke="{INK}" stroke-width="12" stroke-linecap="round" stroke-linejoin="round"/>')
    s.append(f'<path d="M228 244H612L572 384H258" fill="none" stroke="{INK}" stroke-width="12" stroke-linejoin="round"/>')
    slats = []
    for i in range(1, 6):
        t = i / 6
        xt = 228 + (612 - 228) * t
        xb = 258 + (572 - 258) * t
        slats.append(f"M{xt:.0f} 250L{xb:.0f} 378")
    s.append(f'<path d="{"".join(slats)}M240 314H592" stroke="{INK}" stroke-width="5"/>')
    for wx in (300, 540):
        s.append(f'<circle cx="{wx}" cy="446" r="26" fill="{INK}"/><circle cx="{wx}" cy="446" r="9" fill="{BG}"/>')
    # order badge
    s.append(f'<circle cx="620" cy="176" r="34" fill="{ACCENT}"/>')
    s.append(f'<path d="M604 177L616 189L638 164" fill="none" stroke="{PAPER}" stroke-width="8" stroke-linecap="round" stroke-linejoin="round"/>')
    return frame("".join(s))


def finance():
    s = []
    # panel
    s.append(f'<rect x="186" y="136" width="420" height="320" rx="18" fill="{DARK}" opacity="0.12" transform="translate(10 12)"/>')
    s.append(f'<rect x="186" y="136" width="420" height="320" rx="18" fill="{PAPER}"/>')
    s.append(f'<rect x="214" y="162" width="90" height="12" rx="6" fill="{DARK}"/>')
    s.append(f'<rect x="214" y="184" width="56" height="10" rx="5" fill="{LIGHT}"/>')
    for y in (250, 310, 370):
        s.append(f'<path d="M214 {y}H578" stroke="#ece7e0" stroke-width="2"/>')
    base = 420
    bars = (46, 70, 58, 96, 84, 128, 150)
    for i, h in enumerate(bars):
        x = 226 + i * 50
        c = "#d9d3ca" if i < len(bars) - 1 else DARK
        s.append(f'<rect x="{x}" y="{base - h}" width="30" height="{h}" rx="4" fill="{c}"/>')
    s.append(f'<path d="M214 {base}H578" stroke="{INK}" stroke-width="3"/>')
    # trend line
    pts = [(241, 346), (291, 330), (341, 338), (391, 296), (441, 300), (491, 254), (541, 220)]
    d = "M" + "L".join(f"{x} {y}" for x, y in pts)
    s.append(f'<path d="{d}" fill="none" stroke="{ACCENT}" stroke-width="7" stroke-linejoin="round" stroke-linecap="round"/>')
    for x, y in pts:
        s.append(f'<circle cx="{x}" cy="{y}" r="7" fill="{PAPER}" stroke="{ACCENT}" stroke-width="4"/>')
    s.append(f'<path d="M541 220L590 186M566 184H592V210" fill="none" stroke="{ACCENT}" stroke-width="7" stroke-linecap="round" stroke-linejoin="round"/>')
    # coin stack
    cx, cw = 640, 62
    for k in range(5):
        y = 468 - k * 18
        fill = ACCENT if k % 2 == 0 else "#e06500"
        s.append(f'<path d="M{cx - cw} {y}V{y + 14}A{cw} 18 0 0 0 {cx + cw} {y + 14}V{y}Z" fill="{fill}"/>')
        s.append(f'<ellipse cx="{cx}" cy="{y}" rx="{cw}" ry="18" fill="{ACCENT_SOFT if k == 4 else fill}"/>')
    s.append(f'<ellipse cx="{cx}" cy="{468 - 4 * 18}" rx="36" ry="9" fill="none" stroke="#e06500" stroke-width="3"/>')
    return frame("".join(s))


def manufacturing():
    s = []
    # gears: big dark and small orange, meshing
    bx, by = 318, 206
    s.append(gear(bx, by, 120, 100, 14, phase=0.0, fill=DARK, hole_r=34))
    s.append(f'<circle cx="{bx}" cy="{by}" r="62" fill="none" stroke="{MID}" stroke-width="6"/>')
    gx, gy = bx + 186 * math.cos(-0.45), by + 186 * math.sin(-0.45)
    s.append(gear(gx, gy, 78, 60, 9, phase=0.18, fill=ACCENT, hole_r=22))
    s.append(f'<circle cx="{gx:.1f}" cy="{gy:.1f}" r="8" fill="{ACCENT}"/>')
    s.append(f'<circle cx="{bx}" cy="{by}" r="12" fill="{DARK}"/>')
    # conveyor
    s.append(f'<rect x="130" y="414" width="540" height="56" rx="28" fill="{DARK}"/>')
    for i in range(8):
        x = 158 + i * 69
        s.append(f'<circle cx="{x}" cy="442" r="16" fill="{MID}"/><circle cx="{x}" cy="442" r="5" fill="{DARK}"/>')
    s.append(f'<path d="M196 470V520M604 470V520M170 520H230M578 520H630" stroke="{INK}" stroke-width="8" stroke-linecap="round"/>')
    # products on the belt
    s.append(f'<rect x="202" y="346" width="74" height="68" rx="4" fill="{TAN}"/>')
    s.append(f'<rect x="232" y="346" width="14" height="68" fill="#c9ad88"/>')
    s.append(f'<rect x="364" y="360" width="74" height="54" rx="4" fill="{ACCENT}"/>')
    s.append(f'<rect x="394" y="360" width="14" height="54" fill="#e06500"/>')
    s.append(f'<rect x="524" y="346" width="74" height="68" rx="4" fill="{TAN}"/>')
    s.append(f'<rect x="554" y="346" width="14" height="68" fill="#c9ad88"/>')
    # motion chevrons
    s.append(f'<path d="M628 296L650 318L628 340M654 296L676 318L654 340" fill="none" stroke="{ACCENT}" stroke-width="7" stroke-linecap="round" stroke-linejoin="round"/>')
    return frame("".join(s))


def integration():
    s = []
    hub = (400, 300)
    nodes = [(178, 160), (178, 440), (622, 160), (622, 440), (400, 104), (400, 496)]
    # connectors (orthogonal elbows)
    paths = []
    for x, y in nodes:
        if x == 400:
            paths.append(f"M{x} {y}V{hub[1]}")
        else:
            paths.append(f"M{x} {y}H{(x + hub[0]) / 2:.0f}V{hub[1] + (-40 if y < 300 else 40)}H{hub[0]}")
    s.append(f'<path d="{"".join(paths)}" fill="none" stroke="{INK}" stroke-width="5" stroke-linejoin="round"/>')
    for x, y in nodes:
        if x != 400:
            mx = (x + hub[0]) / 2
            s.append(f'<circle cx="{mx:.0f}" cy="{y}" r="8" fill="{ACCENT}"/>')
    # satellite systems
    def block(x, y, glyph, w=112, h=88, fill=DARK):
        g = f'<rect x="{x - w / 2}" y="{y - h / 2}" width="{w}" height="{h}" rx="14" fill="{fill}"/>'
        return g + glyph(x, y)

    def bars(x, y):
        return "".join(f'<rect x="{x - 30 + i * 22}" y="{y + 22 - hh}" width="14" height="{hh}" rx="3" fill="{LIGHT}"/>'
                       for i, hh in enumerate((20, 34, 46)))

    def lines(x, y):
        return "".join(f'<rect x="{x - 34}" y="{y - 22 + i * 16}" width="{ww}" height="8" rx="4" fill="{LIGHT}"/>'
                       for i, ww in enumerate((68, 48, 60)))

    def pie(x, y):
        return (f'<circle cx="{x}" cy="{y}" r="26" fill="{LIGHT}"/>'
                f'<path d="M{x} {y}V{y - 26}A26 26 0 0 1 {x + 26} {y}Z" fill="{ACCENT}"/>')

    def grid(x, y):
        return "".join(f'<rect x="{x - 30 + (i % 3) * 22}" y="{y - 20 + (i // 3) * 22}" width="16" height="16" rx="3" '
                       f'fill="{ACCENT if i == 4 else LIGHT}"/>' for i in range(6))

    def person(x, y):
        return (f'<circle cx="{x}" cy="{y - 10}" r="12" fill="{LIGHT}"/>'
                f'<path d="M{x - 24} {y + 26}Q{x} {y - 6} {x + 24} {y + 26}Z" fill="{LIGHT}"/>')

    def cart(x, y):
        return (f'<path d="M{x - 30} {y - 18}H{x - 20}L{x - 12} {y + 12}H{x + 22}L{x + 30} {y - 10}H{x - 16}" '
                f'fill="none" stroke="{LIGHT}" stroke-width="6" stroke-linejoin="round" stroke-linecap="round"/>'
                f'<circle cx="{x - 8}" cy="{y + 24}" r="5" fill="{LIGHT}"/><circle cx="{x + 18}" cy="{y + 24}" r="5" fill="{LIGHT}"/>')

    for (x, y), g in zip(nodes, (bars, person, lines, cart, grid, pie)):
        s.append(block(x, y, g))
    # hub
    s.append(f'<rect x="{hub[0] - 78}" y="{hub[1] - 78}" width="156" height="156" rx="26" fill="{ACCENT}"/>')
    s.append(f'<g fill="none" stroke="{PAPER}" stroke-width="10" stroke-linecap="round">'
             f'<path d="M{hub[0] - 6} {hub[1] - 24}L{hub[0] + 6} {hub[1] - 36}A20 20 0 0 1 {hub[0] + 34} {hub[1] - 8}L{hub[0] + 22} {hub[1] + 4}"/>'
             f'<path d="M{hub[0] + 6} {hub[1] + 24}L{hub[0] - 6} {hub[1] + 36}A20 20 0 0 1 {hub[0] - 34} {hub[1] + 8}L{hub[0] - 22} {hub[1] - 4}"/>'
             f'<path d="M{hub[0] - 12} {hub[1] + 12}L{hub[0] + 12} {hub[1] - 12}"/></g>')
    return frame("".join(s))


def inhouse():
    s = []
    x0, y0, w, h = 150, 110, 470, 340
    s.append(f'<rect x="{x0 + 12}" y="{y0 + 14}" width="{w}" height="{h}" rx="18" fill="{DARK}" opacity="0.14"/>')
    s.append(f'<rect x="{x0}" y="{y0}" width="{w}" height="{h}" rx="18" fill="{DARK}"/>')
    s.append(f'<path d="M{x0} {y0 + 46}H{x0 + w}" stroke="#343a44" stroke-width="2"/>')
    for i, c in enumerate((ACCENT, "#6b7280", "#6b7280")):
        s.append(f'<circle cx="{x0 + 28 + i * 24}" cy="{y0 + 23}" r="7" fill="{c}"/>')
    s.append(f'<rect x="{x0 + 110}" y="{y0 + 16}" width="110" height="14" rx="7" fill="#3a414c"/>')
    # code lines: (indent, width, colour)
    code = [(0, 90, ACCENT), (0, 150, "#9aa3b0"), (1, 70, "#e8e2d8"), (1, 130, "#9aa3b0"),
            (2, 110, ACCENT_SOFT), (2, 80, "#e8e2d8"), (1, 40, "#9aa3b0"), (1, 160, "#e8e2d8"),
            (0, 30, ACCENT)]
    for i, (ind, ww, c) in enumerate(code):
        y = y0 + 74 + i * 29
        s.append(f'<rect x="{x0 + 22}" y="{y}" width="16" height="10" rx="5" fill="#3e4550"/>')
        s.append(f'<rect x="{x0 + 60 + ind * 30}" y="{y}" width="{ww}" height="10" rx="5" fill="{c}"/>')
        if i in (1, 3, 7):
            s.append(f'<rect x="{x0 + 60 + ind * 30 + ww + 12}" y="{y}" width="{ww // 3}" height="10" rx="5" fill="{ACCENT_SOFT if i == 3 else "#6b7280"}"/>')
    # cursor
    s.append(f'<rect x="{x0 + 100}" y="{y0 + 74 + 8 * 29 - 6}" width="4" height="22" fill="{ACCENT}"/>')
    # </> badge
    bx, by = 600, 420
    s.append(f'<circle cx="{bx}" cy="{by}" r="82" fill="{ACCENT}"/>')
    s.append(f'<g fill="none" stroke="{PAPER}" stroke-width="12" stroke-linecap="round" stroke-linejoin="round">'
             f'<path d="M{bx - 24} {by - 28}L{bx - 50} {by}L{bx - 24} {by + 28}"/>'
             f'<path d="M{bx + 24} {by - 28}L{bx + 50} {by}L{bx + 24} {by + 28}"/>'
             f'<path d="M{bx + 10} {by - 36}L{bx - 10} {by + 36}"/></g>')
    return frame("".join(s))


ITEMS = {
    "automotive": automotive,
    "construction": construction,
    "e-commerce": ecommerce,
    "finance": finance,
    "manufacturing": manufacturing,
    "third-party-software-integration": integration,
    "in-house-development": inhouse,
}

if __name__ == "__main__":
    out = sys.argv[1]
    os.makedirs(out, exist_ok=True)
    for name, fn in ITEMS.items():
        with open(os.path.join(out, name + ".svg"), "w") as f:
            f.write(fn())

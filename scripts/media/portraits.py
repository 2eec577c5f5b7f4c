#!/usr/bin/env python3
"""Writes stylised, flat-illustration team portraits as 480x600 SVG files.

Usage: portraits.py OUT_DIR
One SVG per team member (file name = content/team.json imagePath with .svg).
generate.sh rasterises them with Chromium and converts them to WebP.
"""
import os
import sys

W, H = 480, 600
ACCENT = "#ff7300"
INK = "#1a1a1a"

# Head geometry (shared by everyone; variety comes from hair, clothes, colour).
HX, HY = 240, 262          # head centre
HRX, HRY = 68, 86          # head radii


def background(bg, ring):
    return (
        f'<rect width="{W}" height="{H}" fill="{bg}"/>'
        f'<circle cx="{HX}" cy="{HY + 10}" r="186" fill="{ring}"/>'
        # thin brand arc, same on every portrait
        f'<path d="M{HX - 206} {HY + 10}A206 206 0 0 1 {HX + 145.7} {HY - 135.7}" '
        f'fill="none" stroke="{ACCENT}" stroke-width="4" stroke-linecap="round" opacity="0.9"/>'
    )


def neck(skin, shade):
    return (
        f'<path d="M{HX - 34} {HY + 50}V{HY + 150}H{HX + 34}V{HY + 50}Z" fill="{skin}"/>'
        f'<path d="M{HX - 34} {HY + 62}Q{HX} {HY + 112} {HX + 34} {HY + 62}V{HY + 104}'
        f'Q{HX} {HY + 132} {HX - 34} {HY + 104}Z" fill="{shade}"/>'
    )


def body(p):
    """Shoulders and clothes. Styles: blazer, sweater, blouse, turtleneck."""
    j, s = p["jacket"], p["shirt"]
    sy = HY + 128       # shoulder line
    torso = (f'<path d="M40 {H}C40 {sy + 70} 70 {sy + 22} 150 {sy + 6}L{HX} {sy}'
             f'L330 {sy + 6}C410 {sy + 22} 440 {sy + 70} 440 {H}Z" fill="{j}"/>')
    style = p["style"]
    if style == "blazer":
        shirt = (f'<path d="M{HX - 48} {sy + 2}L{HX} {sy + 120}L{HX + 48} {sy + 2}Z" fill="{s}"/>')
        tie = ""
        if p.get("tie"):
            tie = (f'<path d="M{HX - 9} {sy + 26}L{HX + 9} {sy + 26}L{HX + 6} {sy + 36}'
                   f'L{HX + 13} {sy + 104}L{HX} {sy + 120}L{HX - 13} {sy + 104}L{HX - 6} {sy + 36}Z" fill="{p["tie"]}"/>')
        collar = (f'<path d="M{HX - 38} {sy - 6}L{HX} {sy + 26}L{HX - 22} {sy + 44}L{HX - 46} {sy + 8}Z" fill="{p.get("collar", "#ffffff")}"/>'
                  f'<path d="M{HX + 38} {sy - 6}L{HX} {sy + 26}L{HX + 22} {sy + 44}L{HX + 46} {sy + 8}Z" fill="{p.get("collar", "#ffffff")}"/>')
        lapels = (f'<path d="M{HX - 50} {sy}L{HX - 8} {sy + 140}L{HX - 2} {H}L{HX - 70} {H}L{HX - 96} {sy + 64}L{HX - 70} {sy + 50}Z" fill="{p["lapel"]}"/>'
                  f'<path d="M{HX + 50} {sy}L{HX + 8} {sy + 140}L{HX + 2} {H}L{HX + 70} {H}L{HX + 96} {sy + 64}L{HX + 70} {sy + 50}Z" fill="{p["lapel"]}"/>'
                  f'<path d="M{HX - 8} {sy + 140}L{HX} {H}L{HX + 8} {sy + 140}L{HX} {sy + 118}Z" fill="{j}"/>')
        return torso + shirt + tie + collar + lapels
    if style == "sweater":
        return (torso +
                f'<path d="M{HX - 62} {sy + 2}Q{HX} {sy + 60} {HX + 62} {sy + 2}" fill="none" stroke="{p["lapel"]}" stroke-width="14"/>'
                f'<path d="M{HX - 50} {sy}Q{HX} {sy + 46} {HX + 50} {sy}Z" fill="{s}"/>')
    if style == "blouse":
        return (torso +
                f'<path d="M{HX - 44} {sy - 2}L{HX} {sy + 74}L{HX + 44} {sy - 2}Z" fill="{p["skin"]}"/>'
                f'<path d="M{HX - 46} {sy - 2}L{HX} {sy + 76}L{HX - 30} {sy + 92}L{HX - 64} {sy + 6}Z" fill="{s}"/>'
                f'<path d="M{HX + 46} {sy - 2}L{HX} {sy + 76}L{HX + 30} {sy + 92}L{HX + 64} {sy + 6}Z" fill="{s}"/>'
                + (f'<circle cx="{HX}" cy="{sy + 52}" r="6" fill="{p["pendant"]}"/>' if p.get("pendant") else ""))
    if style == "turtleneck":
        return (torso +
                f'<path d="M{HX - 42} {sy - 40}Q{HX} {sy - 28} {HX + 42} {sy - 40}V{sy + 10}Q{HX} {sy + 24} {HX - 42} {sy + 10}Z" fill="{s}"/>'
                f'<path d="M{HX - 42} {sy - 22}Q{HX} {sy - 10} {HX + 42} {sy - 22}M{HX - 42} {sy - 6}Q{HX} {sy + 6} {HX + 42} {sy - 6}" '
                f'fill="none" stroke="{p["lapel"]}" stroke-width="3" opacity="0.6"/>')
    raise ValueError(style)


def head(p):
    skin, shade = p["skin"], p["shade"]
    ears = (f'<ellipse cx="{HX - HRX + 2}" cy="{HY + 6}" rx="13" ry="20" fill="{shade}"/>'
            f'<ellipse cx="{HX + HRX - 2}" cy="{HY + 6}" rx="13" ry="20" fill="{shade}"/>')
    face = f'<ellipse cx="{HX}" cy="{HY}" rx="{HRX}" ry="{HRY}" fill="{skin}"/>'
    feat = p.get("feature", "#2a1d17")
    brow_c = p.get("brow", feat)
    ey = HY + 4
    eyes = (f'<ellipse cx="{HX - 27}" cy="{ey}" rx="5.5" ry="6.5" fill="{feat}"/>'
            f'<ellipse cx="{HX + 27}" cy="{ey}" rx="5.5" ry="6.5" fill="{feat}"/>')
    brows = (f'<path d="M{HX - 40} {ey - 18}Q{HX - 27} {ey - 26} {HX - 14} {ey - 19}'
             f'M{HX + 40} {ey - 18}Q{HX + 27} {ey - 26} {HX + 14} {ey - 19}" fill="none" '
             f'stroke="{brow_c}" stroke-width="{p.get("brow_w", 5)}" stroke-linecap="round"/>')
    nose = (f'<path d="M{HX + 2} {ey + 8}Q{HX + 10} {ey + 30} {HX + 1} {ey + 34}" fill="none" '
            f'stroke="{shade}" stroke-width="5" stroke-linecap="round"/>')
    mouth = (f'<path d="M{HX - 18} {ey + 50}Q{HX} {ey + 62} {HX + 18} {ey + 50}" fill="none" '
             f'stroke="{p.get("lip", shade)}" stroke-width="5" stroke-linecap="round"/>')
    cheeks = ""
    if p.get("blush"):
        cheeks = (f'<ellipse cx="{HX - 42}" cy="{ey + 30}" rx="13" ry="8" fill="{p["blush"]}" opacity="0.35"/>'
                  f'<ellipse cx="{HX + 42}" cy="{ey + 30}" rx="13" ry="8" fill="{p["blush"]}" opacity="0.35"/>')
    return ears, face + cheeks + eyes + brows + nose + mouth


def glasses(color):
    ey = HY + 4
    return (f'<g fill="none" stroke="{color}" stroke-width="4">'
            f'<rect x="{HX - 50}" y="{ey - 15}" width="42" height="30" rx="10"/>'
            f'<rect x="{HX + 8}" y="{ey - 15}" width="42" height="30" rx="10"/>'
            f'<path d="M{HX - 8} {ey - 4}Q{HX} {ey - 10} {HX + 8} {ey - 4}'
            f'M{HX - 50} {ey - 6}L{HX - HRX + 2} {ey - 10}M{HX + 50} {ey - 6}L{HX + HRX - 2} {ey - 10}"/></g>')


def earrings(color):
    return (f'<circle cx="{HX - HRX + 2}" cy="{HY + 32}" r="5" fill="{color}"/>'
            f'<circle cx="{HX + HRX - 2}" cy="{HY + 32}" r="5" fill="{color}"/>')


# ---- hair -----------------------------------------------------------------
# Each returns (back_layer, front_layer). Coordinates relative to the head.
T = HY - HRY  # top of head


def hair_bob(c):
    back = (f'<path d="M{HX - 84} {HY + 70}C{HX - 98} {HY - 20} {HX - 86} {T - 26} {HX} {T - 22}'
            f'C{HX + 86} {T - 26} {HX + 98} {HY - 20} {HX + 84} {HY + 70}'
            f'Q{HX + 60} {HY + 84} {HX + 40} {HY + 70}L{HX - 40} {HY + 70}Q{HX - 60} {HY + 84} {HX - 84} {HY + 70}Z" fill="{c}"/>')
    front = (f'<path d="M{HX - 70} {HY + 10}C{HX - 78} {T + 10} {HX - 30} {T - 16} {HX + 10} {T - 12}'
             f'C{HX + 60} {T - 8} {HX + 80} {T + 30} {HX + 72} {HY + 20}'
             f'C{HX + 62} {HY - 30} {HX + 30} {T + 34} {HX - 16} {T + 40}'
             f'C{HX - 44} {T + 50} {HX - 60} {HY - 20} {HX - 70} {HY + 10}Z" fill="{c}"/>')
    return back, front


def hair_crop(c, line=18):
    front = (f'<path d="M{HX - HRX} {HY - 8}C{HX - HRX - 4} {T - 6} {HX - 30} {T - 14} {HX} {T - 13}'
             f'C{HX + 30} {T - 14} {HX + HRX + 4} {T - 6} {HX + HRX} {HY - 8}'
             f'C{HX + HRX - 8} {T + line + 14} {HX + 30} {T + line} {HX} {T + line}'
             f'C{HX - 30} {T + line} {HX - HRX + 8} {T + line + 14} {HX - HRX} {HY - 8}Z" fill="{c}"/>')
    return "", front


def hair_sidepart(c):
    front = (f'<path d="M{HX - HRX - 2} {HY - 2}C{HX - HRX - 10} {T - 10} {HX - 20} {T - 24} {HX + 20} {T - 20}'
             f'C{HX + 62} {T - 16} {HX + HRX + 10} {T + 10} {HX + HRX + 1} {HY - 2}'
             f'C{HX + HRX - 6} {T + 40} {HX + 52} {T + 32} {HX + 30} {T + 28}'
             f'C{HX - 10} {T + 22} {HX - 34} {T + 30} {HX - 40} {T + 20}'
             f'C{HX - 50} {T + 36} {HX - HRX + 4} {T + 50} {HX - HRX - 2} {HY - 2}Z" fill="{c}"/>'
             f'<path d="M{HX - 40} {T + 20}C{HX - 30} {T - 4} {HX - 10} {T - 14} {HX + 10} {T - 16}" fill="none" '
             f'stroke="#000" stroke-opacity="0.18" stroke-width="3"/>')
    return "", front


def hair_long_center(c):
    back = (f'<path d="M{HX - 86} {HY + 150}C{HX - 100} {HY + 40} {HX - 96} {T - 26} {HX} {T - 20}'
            f'C{HX + 96} {T - 26} {HX + 100} {HY + 40} {HX + 86} {HY + 150}'
            f'Q{HX + 60} {HY + 166} {HX + 40} {HY + 150}L{HX - 40} {HY + 150}Q{HX - 60} {HY + 166} {HX - 86} {HY + 150}Z" fill="{c}"/>')
    front = (f'<path d="M{HX - 72} {HY + 30}C{HX - 80} {T + 10} {HX - 40} {T - 14} {HX} {T - 12}'
             f'C{HX + 40} {T - 14} {HX + 80} {T + 10} {HX + 72} {HY + 30}'
             f'C{HX + 64} {HY - 40} {HX + 40} {T + 24} {HX + 2} {T + 18}'
             f'L{HX - 2} {T + 18}C{HX - 40} {T + 24} {HX - 64} {HY - 40} {HX - 72} {HY + 30}Z" fill="{c}"/>')
    return back, front


def hair_curly(c):
    import math
    # a ring of overlapping circles makes a soft, voluminous curl silhouette
    pts = []
    n = 22
    for i in range(n):
        a = math.pi * (0.92 + 1.16 * i / (n - 1))  # from lower-left over the top to lower-right
        rx, ry = 100, 112
        x = HX + rx * math.cos(a)
        y = HY - 4 + ry * math.sin(a)
        r = 34 if i % 2 else 30
        pts.append(f'<circle cx="{x:.1f}" cy="{y:.1f}" r="{r}"/>')
    lower = []
    for side in (-1, 1):
        for k, (dx, dy, r) in enumerate([(96, 30, 32), (92, 70, 30), (80, 104, 28)]):
            lower.append(f'<circle cx="{HX + side * dx}" cy="{HY + dy}" r="{r}"/>')
    back = (f'<g fill="{c}"><ellipse cx="{HX}" cy="{HY - 6}" rx="104" ry="114"/>'
            + "".join(pts) + "".join(lower) + '</g>')
    front = (f'<path d="M{HX - 70} {HY - 4}C{HX - 74} {T + 6} {HX - 30} {T - 12} {HX + 4} {T - 10}'
             f'C{HX + 44} {T - 10} {HX + 76} {T + 14} {HX + 70} {HY - 4}'
             f'C{HX + 58} {T + 44} {HX + 34} {T + 26} {HX + 14} {T + 34}'
             f'C{HX - 4} {T + 20} {HX - 30} {T + 40} {HX - 42} {T + 30}'
             f'C{HX - 52} {T + 48} {HX - 62} {T + 50} {HX - 70} {HY - 4}Z" fill="{c}"/>')
    return back, front


def hair_receding(c):
    front = (f'<path d="M{HX - HRX - 1} {HY - 4}C{HX - HRX - 8} {T + 6} {HX - 40} {T - 12} {HX} {T - 11}'
             f'C{HX + 40} {T - 12} {HX + HRX + 8} {T + 6} {HX + HRX + 1} {HY - 4}'
             f'C{HX + HRX - 4} {T + 30} {HX + 58} {T + 26} {HX + 44} {T + 22}'
             f'C{HX + 20} {T + 10} {HX - 20} {T + 10} {HX - 44} {T + 22}'
             f'C{HX - 58} {T + 26} {HX - HRX + 4} {T + 30} {HX - HRX - 1} {HY - 4}Z" fill="{c}"/>')
    return "", front


def hijab(c, fold):
    # covers head, ears and neck; the face shows through an oval opening
    back = (f'<path d="M{HX - 150} {H}C{HX - 150} {HY + 150} {HX - 100} {HY + 110} {HX - 88} {HY + 40}'
            f'C{HX - 100} {T - 20} {HX - 50} {T - 34} {HX} {T - 34}'
            f'C{HX + 50} {T - 34} {HX + 100} {T - 20} {HX + 88} {HY + 40}'
            f'C{HX + 100} {HY + 110} {HX + 150} {HY + 150} {HX + 150} {H}Z" fill="{c}"/>'
            f'<path d="M{HX - 88} {HY + 60}C{HX - 60} {HY + 150} {HX + 60} {HY + 150} {HX + 92} {HY + 80}'
            f'C{HX + 80} {HY + 170} {HX - 40} {HY + 200} {HX - 100} {HY + 120}Z" fill="{fold}" opacity="0.55"/>')
    front = (f'<ellipse cx="{HX}" cy="{HY + 2}" rx="{HRX + 2}" ry="{HRY + 4}" fill="none" stroke="{c}" stroke-width="20"/>')
    return back, front


def beard(c):
    return (f'<path d="M{HX - HRX + 2} {HY + 6}C{HX - HRX + 4} {HY + 70} {HX - 30} {HY + HRY + 8} {HX} {HY + HRY + 8}'
            f'C{HX + 30} {HY + HRY + 8} {HX + HRX - 4} {HY + 70} {HX + HRX - 2} {HY + 6}'
            f'C{HX + 56} {HY + 40} {HX + 40} {HY + 44} {HX + 26} {HY + 44}'
            f'C{HX + 12} {HY + 40} {HX - 12} {HY + 40} {HX - 26} {HY + 44}'
            f'C{HX - 40} {HY + 44} {HX - 56} {HY + 40} {HX - HRX + 2} {HY + 6}Z" fill="{c}"/>'
            f'<path d="M{HX - 14} {HY + 58}Q{HX} {HY + 64} {HX + 14} {HY + 58}" fill="none" stroke="#3a2b25" '
            f'stroke-width="5" stroke-linecap="round"/>')


PEOPLE = [
    dict(file="ava-thompson", bg="#efe7df", ring="#e4d6c8",
         skin="#f2cdb4", shade="#dfa98b", lip="#c0705f", blush="#e8907a",
         hair=lambda: hair_bob("#8a4b2c"), brow="#7a4128",
         style="blazer", jacket="#23324a", lapel="#1b2739", shirt="#f4efe9", collar="#f4efe9",
         extra=lambda: earrings("#e2b659")),
    dict(file="daniel-okafor", bg="#e4e8ec", ring="#d3dae1",
         skin="#6e4630", shade="#573522", lip="#3f2519", feature="#1b120d",
         hair=lambda: hair_crop("#1b1412", line=14), beard=lambda: beard("#1f1714"), brow="#1b1412",
         style="blazer", jacket="#3a3f46", lapel="#30343a", shirt="#ffffff", tie="#ff7300"),
    dict(file="priya-raman", bg="#ece6ef", ring="#ddd2e2",
         skin="#b97c57", shade="#9c6343", lip="#7e3f31", blush="#c4604a",
         hair=lambda: hair_long_center("#1e1614"), brow="#1e1614",
         style="blouse", jacket="#6b2e3e", lapel="#5a2534", shirt="#a84a5e", pendant="#e2b659",
         extra=lambda: earrings("#e2b659")),
    dict(file="marcus-chen", bg="#e3ebe6", ring="#d0ddd5",
         skin="#eac7a2", shade="#d3a57d", lip="#b87660",
         hair=lambda: hair_sidepart("#18191c"), brow="#18191c",
         style="turtleneck", jacket="#2c3440", lapel="#1c222b", shirt="#343d4b",
         extra=lambda: glasses("#1a1a1a")),
    dict(file="sofia-alvarez", bg="#f1e6dd", ring="#e6d3c4",
         skin="#d9a47c", shade="#c0855d", lip="#a45448", blush="#d2715a",
         hair=lambda: hair_curly("#3b2519"), brow="#3b2519",
         style="sweater", jacket="#c9833f", lapel="#b4722f", shirt="#f3ece4",
         extra=lambda: earrings("#1a1a1a")),
    dict(file="james-whitfield", bg="#e7e9ee", ring="#d6dae3",
         skin="#efc8ad", shade="#d9a283", lip="#b57261",
         hair=lambda: hair_receding("#b9b6b1"), brow="#9c968f",
         style="blazer", jacket="#4a5261", lapel="#3e4553", shirt="#dfe8f2", collar="#dfe8f2", tie="#1d2a44",
         extra=lambda: glasses("#5b5e66")),
    dict(file="leila-haddad", bg="#e5ebe9", ring="#d2dcd8",
         skin="#d8ad86", shade="#bf8e66", lip="#9c5247", blush="#cf7a60",
         hair=lambda: hijab("#2f4a4c", "#1f3537"), brow="#2b1d17",
         style="blazer", jacket="#b99a7a", lapel="#a6876a", shirt="#2f4a4c", collar="#2f4a4c",
         neck_hidden=True),
]


def portrait(p):
    back, front = p["hair"]()
    ears, face = head(p)
    parts = [background(p["bg"], p["ring"])]
    if p.get("neck_hidden"):
        # a head scarf drapes over the shoulders, so it is drawn after the body
        parts += [body(p), back, face, front]
    else:
        parts += [back, neck(p["skin"], p["shade"]), body(p), ears, face]
        if p.get("beard"):
            parts.append(p["beard"]())
        parts.append(front)
    if p.get("extra"):
        parts.append(p["extra"]())
    return (f'<svg xmlns="http://www.w3.org/2000/svg" width="{W}" height="{H}" viewBox="0 0 {W} {H}">'
            + "".join(parts) + "</svg>\n")


if __name__ == "__main__":
    out = sys.argv[1]
    os.makedirs(out, exist_ok=True)
    for p in PEOPLE:
        with open(os.path.join(out, p["file"] + ".svg"), "w") as f:
            f.write(portrait(p))

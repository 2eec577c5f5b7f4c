/**
 * The share image, the app icons and the web manifest, drawn for the site in
 * HTML and SVG, rendered by Debian's Chromium and written as small indexed
 * PNGs (png.ts):
 *
 *   public/images/share.png             1200×630  Open Graph / Twitter card picture
 *   public/icons/icon-192.png, icon-512.png       manifest icons ("any")
 *   public/icons/icon-maskable-512.png            manifest icon ("maskable": mark in the safe zone)
 *   public/icons/apple-touch-icon.png   180×180   iOS home screen
 *   public/manifest.webmanifest
 *
 * Colours come from src/shared/design-tokens.ts, words from content/site.json,
 * the mark from public/images/logo-light.svg. Every PNG must stay under the
 * built site's 40 KB image budget (test/bundle/budgets.test.ts).
 *
 * Run from the repository root: `npx tsx scripts/media/share-image.ts`
 * (CHROME_PATH overrides /usr/bin/chromium).
 */
import { existsSync, mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { chromium } from "@playwright/test";
import { CHROMIUM_LAUNCH } from "../../e2e/support/chromium.ts";
import { COLORS } from "../../src/shared/design-tokens.ts";
import { SITE } from "../../src/shared/site.ts";
import { optimisePng } from "./png.ts";

const ROOT = join(import.meta.dirname, "../..");
const PUBLIC = join(ROOT, "public");
const BUDGET = 40 * 1024;

/** The site's type, when the font packages are installed; the system's serif and sans otherwise. */
function fontFace(family: string, file: string): string {
  const path = join(ROOT, "node_modules/@fontsource-variable", file);
  if (!existsSync(path)) {
    console.warn(`  (no ${file}: the system's fonts stand in)`);
    return "";
  }
  const data = readFileSync(path).toString("base64");
  return `@font-face{font-family:"${family}";src:url(data:font/woff2;base64,${data}) format("woff2");font-weight:100 900;}`;
}

const FONTS = [
  fontFace("Source Serif 4", "source-serif-4/files/source-serif-4-latin-wght-normal.woff2"),
  fontFace("Inter", "inter/files/inter-latin-wght-normal.woff2"),
].join("");
const SERIF = `"Source Serif 4", "Iowan Old Style", Georgia, "DejaVu Serif", serif`;
const SANS = `Inter, system-ui, "DejaVu Sans", sans-serif`;

/** The light logo (white wordmark, accent meridian), for dark grounds. */
const LOGO_LIGHT = readFileSync(join(PUBLIC, "images/logo-light.svg"), "utf8");

/** The mark alone: a white disc crossed by the accent meridian, as in the logo. */
function mark(cx: number, cy: number, r: number): string {
  return `<circle cx="${cx}" cy="${cy}" r="${r}" fill="${COLORS.paper}"/>
    <ellipse cx="${cx}" cy="${cy}" rx="${(r * 6.5) / 18}" ry="${r}" fill="${COLORS.accent}"/>`;
}

/** The first clause of the mission: "We share modern and emerging computer technology with the companies we serve." */
const TAGLINE = `${SITE.mission.split(",")[0]?.trim()}.`;

/** A globe of meridians, the accent one in front: the right-hand side of the share image. */
function globe(cx: number, cy: number, r: number): string {
  const meridians = [0.86, 0.6]
    .map(
      (k) =>
        `<ellipse cx="${cx}" cy="${cy}" rx="${r * k}" ry="${r}" fill="none" stroke="${COLORS.nightLine}" stroke-width="2"/>`,
    )
    .join("");
  const parallels = [-0.5, 0.5]
    .map((k) => {
      const y = cy + r * k;
      const half = r * Math.sqrt(1 - k * k);
      return `<line x1="${cx - half}" y1="${y}" x2="${cx + half}" y2="${y}" stroke="${COLORS.nightLine}" stroke-width="2"/>`;
    })
    .join("");
  return `<circle cx="${cx}" cy="${cy}" r="${r}" fill="${COLORS.nightSoft}"/>
    ${meridians}${parallels}
    <line x1="${cx - r}" y1="${cy}" x2="${cx + r}" y2="${cy}" stroke="${COLORS.nightLineStrong}" stroke-width="2"/>
    <ellipse cx="${cx}" cy="${cy}" rx="${(r * 6.5) / 18}" ry="${r}" fill="${COLORS.accent}"/>
    <circle cx="${cx}" cy="${cy}" r="${r}" fill="none" stroke="${COLORS.nightLineStrong}" stroke-width="2"/>`;
}

const SHARE_HTML = `<!doctype html><html><head><meta charset="utf-8"><style>
${FONTS}
html,body{margin:0;width:1200px;height:630px;overflow:hidden;background:${COLORS.night};}
.art{position:absolute;inset:0;}
.text{position:absolute;left:80px;top:72px;width:640px;color:${COLORS.onNight};font-family:${SANS};}
.logo svg{display:block;width:244px;height:auto;}
h1{margin:80px 0 0;font:600 100px/0.98 ${SERIF};letter-spacing:-0.02em;}
h1 .plus{color:${COLORS.accent};font-weight:500;}
p{margin:30px 0 0;width:560px;font-size:28px;line-height:1.4;color:${COLORS.onNightSoft};}
.firm{position:absolute;left:80px;bottom:62px;font:600 17px/1 ${SANS};letter-spacing:0.18em;text-transform:uppercase;color:${COLORS.onNightSoft};}
.bar{position:absolute;left:0;right:0;bottom:0;height:12px;background:${COLORS.accent};}
</style></head><body>
<svg class="art" width="1200" height="630" viewBox="0 0 1200 630">${globe(1010, 300, 270)}</svg>
<div class="text">
  <div class="logo">${LOGO_LIGHT}</div>
  <h1>Business <span class="plus">+</span><br>Technology</h1>
  <p>${TAGLINE}</p>
</div>
<div class="firm">${SITE.firmName}</div>
<div class="bar"></div>
</body></html>`;

/** An icon: the mark on a night field, `markShare` of the side wide, square or rounded. */
function iconHtml(size: number, markShare: number, corner: number): string {
  const r = (size * markShare) / 2;
  return `<!doctype html><html><head><style>html,body{margin:0;background:transparent;}svg{display:block;}</style></head><body>
<svg width="${size}" height="${size}" viewBox="0 0 ${size} ${size}">
  <rect width="${size}" height="${size}" rx="${size * corner}" fill="${COLORS.night}"/>
  ${mark(size / 2, size / 2, r)}
</svg></body></html>`;
}

interface Output {
  file: string;
  width: number;
  height: number;
  html: string;
  /** Transparent where the page draws nothing (rounded corners). */
  transparent?: boolean;
  /** Palette size: fewer colours, a smaller file (flat art needs few). */
  colours?: number;
}

const OUTPUTS: Output[] = [
  // 64 colours: the type's and the lines' anti-aliasing stays smooth, and the file stays near 30 KB.
  { file: "images/share.png", width: 1200, height: 630, html: SHARE_HTML, colours: 64 },
  // "any": a rounded tile, shown as it is (desktop install, app lists).
  {
    file: "icons/icon-192.png",
    width: 192,
    height: 192,
    html: iconHtml(192, 0.6, 0.22),
    transparent: true,
  },
  {
    file: "icons/icon-512.png",
    width: 512,
    height: 512,
    html: iconHtml(512, 0.6, 0.22),
    transparent: true,
  },
  // "maskable": full bleed, the mark well inside the 80 % safe circle.
  { file: "icons/icon-maskable-512.png", width: 512, height: 512, html: iconHtml(512, 0.5, 0) },
  // iOS rounds the corners itself and fills transparency with black: full bleed.
  { file: "icons/apple-touch-icon.png", width: 180, height: 180, html: iconHtml(180, 0.58, 0) },
];

const MANIFEST = {
  id: "/",
  name: SITE.firmName,
  short_name: SITE.shortName,
  description: SITE.mission,
  lang: "en",
  dir: "ltr",
  start_url: "/",
  scope: "/",
  display: "browser",
  theme_color: COLORS.accent,
  background_color: COLORS.paper,
  icons: [
    { src: "/icons/icon-192.png", sizes: "192x192", type: "image/png", purpose: "any" },
    { src: "/icons/icon-512.png", sizes: "512x512", type: "image/png", purpose: "any" },
    {
      src: "/icons/icon-maskable-512.png",
      sizes: "512x512",
      type: "image/png",
      purpose: "maskable",
    },
  ],
};

const browser = await chromium.launch(CHROMIUM_LAUNCH);
try {
  for (const output of OUTPUTS) {
    const page = await browser.newPage({
      viewport: { width: output.width, height: output.height },
      deviceScaleFactor: 1,
    });
    await page.setContent(output.html, { waitUntil: "load" });
    await page.evaluate(() => document.fonts.ready);
    const screenshot = await page.screenshot({ omitBackground: output.transparent === true });
    await page.close();
    const png = optimisePng(screenshot, output.colours);
    const path = join(PUBLIC, output.file);
    mkdirSync(dirname(path), { recursive: true });
    writeFileSync(path, png);
    console.log(
      `  public/${output.file.padEnd(28)} ${output.width}×${output.height}  ${(png.length / 1024).toFixed(1)} KB`,
    );
    if (png.length >= BUDGET) throw new Error(`public/${output.file} is over ${BUDGET / 1024} KB`);
  }
} finally {
  await browser.close();
}
writeFileSync(join(PUBLIC, "manifest.webmanifest"), `${JSON.stringify(MANIFEST, null, 2)}\n`);
console.log("  public/manifest.webmanifest");

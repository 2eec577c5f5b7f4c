/**
 * Prints the fallback @font-face rules of src/web/styles/fonts.css: a local
 * font (Arial, Times New Roman, or a font with the same metrics) scaled and
 * re-spaced so that its text takes the room the web font's will, and the swap
 * to the web font moves nothing. Run it when a font file or the copy changes,
 * paste its output over the fallback rules of fonts.css, and `npm run format`:
 *
 *   npx tsx scripts/font-fallbacks.ts
 *
 * Everything is measured by Chromium (/usr/bin/chromium, or CHROME_PATH), the
 * engine that lays the text out:
 * - the web font's vertical metrics (ascent, descent, line gap, as fractions of
 *   the font size), from the woff2 files the site serves;
 * - size-adjust: the width of the site's own copy (content/*.json) set in the
 *   web font, divided by its width in the local font of the same weight class:
 *   regular faces are matched on the sentences at 400, bold faces on the
 *   names, titles and labels at 600 (the weight of headings, buttons and
 *   navigation);
 * - the overrides are the web font's metrics divided by size-adjust, because
 *   the browser scales them by size-adjust too.
 *
 * Liberation Sans and Serif (Debian's fonts-liberation, which Chromium
 * installs) and Arimo and Tinos have the advance widths and vertical metrics
 * of Arial and Times New Roman, so one set of numbers serves Windows, macOS and
 * Linux; the script measures whichever of them it finds first.
 */
import { readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { chromium } from "@playwright/test";
import { CHROMIUM_LAUNCH } from "../e2e/support/chromium.ts";

interface Fallback {
  /** The family name the site's font stacks use. */
  family: string;
  /** The web font it stands in for, as fonts.css names it. */
  webFamily: string;
  /** The woff2 file of the web font (the one fonts.css serves). */
  webFile: string;
  faces: {
    /** The CSS font-weight descriptor of the face ("" for the default, normal). */
    weight: string;
    /** The web font's weight the widths are matched at. */
    matchWeight: number;
    /** local() names, in order: Windows and macOS names first, then metric-compatible ones. */
    locals: string[];
  }[];
}

const FALLBACKS: Fallback[] = [
  {
    family: "Inter Fallback",
    webFamily: "Inter",
    webFile: "src/web/styles/fonts/inter-latin-wght-400-700.woff2",
    faces: [
      { weight: "", matchWeight: 400, locals: ["Arial", "ArialMT", "Liberation Sans", "Arimo"] },
      {
        weight: "600 900",
        matchWeight: 600,
        locals: ["Arial Bold", "Arial-BoldMT", "Liberation Sans Bold", "Arimo Bold"],
      },
    ],
  },
  {
    family: "Source Serif Fallback",
    webFamily: "Source Serif 4",
    webFile: "src/web/styles/fonts/source-serif-4-latin-wght-400-700.woff2",
    faces: [
      {
        weight: "",
        matchWeight: 400,
        locals: ["Times New Roman", "TimesNewRomanPSMT", "Liberation Serif", "Tinos"],
      },
      {
        weight: "600 900",
        matchWeight: 600,
        locals: [
          "Times New Roman Bold",
          "TimesNewRomanPS-BoldMT",
          "Liberation Serif Bold",
          "Tinos Bold",
        ],
      },
    ],
  },
];

/**
 * The site's copy, the text whose width is matched: its sentences (set in the
 * regular weight) and its names, titles and labels (headings, set bold).
 */
function siteCopy(): { sentences: string; titles: string } {
  const strings: string[] = [];
  const collect = (value: unknown): void => {
    if (typeof value === "string") {
      if (value.includes(" ") && !/^[a-z]+:|^\//.test(value)) strings.push(value);
    } else if (value && typeof value === "object") Object.values(value).forEach(collect);
  };
  for (const file of readdirSync("content").filter((name) => name.endsWith(".json")))
    collect(JSON.parse(readFileSync(join("content", file), "utf8")));
  const isTitle = (text: string) => text.length < 60 && !/[.!?]$/.test(text);
  return {
    sentences: strings.filter((text) => !isTitle(text)).join(" "),
    titles: strings.filter(isTitle).join(" "),
  };
}

const percent = (value: number) => `${Number((value * 100).toFixed(2))}%`;

const browser = await chromium.launch(CHROMIUM_LAUNCH);
try {
  const page = await browser.newPage();
  const { sentences, titles } = siteCopy();
  const rules: string[] = [];
  for (const fallback of FALLBACKS) {
    const fontBase64 = readFileSync(fallback.webFile).toString("base64");
    for (const face of fallback.faces) {
      const measured = await page.evaluate(
        async ({ fontBase64, webFamily, matchWeight, locals, copy }) => {
          const bytes = Uint8Array.from(atob(fontBase64), (c) => c.charCodeAt(0));
          const web = new FontFace(`web ${webFamily}`, bytes, { weight: "100 900" });
          document.fonts.add(await web.load());
          let local = "";
          for (const name of locals) {
            const probe = new FontFace(`local ${name}`, `local("${name}")`);
            try {
              document.fonts.add(await probe.load());
              local = name;
              break;
            } catch {
              // Not installed here: try the next, metric-compatible name.
            }
          }
          if (!local) return null;
          const context = document.createElement("canvas").getContext("2d");
          if (!context) throw new Error("no canvas");
          const SIZE = 4000;
          context.font = `${matchWeight} ${SIZE}px "web ${webFamily}"`;
          const webText = context.measureText(copy);
          context.font = `${SIZE}px "local ${local}"`;
          const localWidth = context.measureText(copy).width;
          // line-height: normal is ascent + descent + line gap, each rounded to a pixel.
          const line = document.createElement("div");
          line.style.cssText = `font: ${matchWeight} ${SIZE}px "web ${webFamily}"; line-height: normal; position: absolute`;
          line.textContent = "x";
          document.body.append(line);
          const lineHeight = line.getBoundingClientRect().height;
          line.remove();
          return {
            local,
            sizeAdjust: webText.width / localWidth,
            ascent: webText.fontBoundingBoxAscent / SIZE,
            descent: webText.fontBoundingBoxDescent / SIZE,
            lineGap:
              Math.max(
                0,
                lineHeight - webText.fontBoundingBoxAscent - webText.fontBoundingBoxDescent,
              ) / SIZE,
          };
        },
        {
          fontBase64,
          webFamily: fallback.webFamily,
          ...face,
          copy: face.matchWeight < 600 ? sentences : titles,
        },
      );
      if (!measured) throw new Error(`none of ${face.locals.join(", ")} is installed`);
      const { local, sizeAdjust, ascent, descent, lineGap } = measured;
      console.error(
        `${fallback.family} ${face.weight || "normal"}: measured ${local} against ${fallback.webFamily} ${face.matchWeight}`,
      );
      rules.push(
        [
          "@font-face {",
          `  font-family: "${fallback.family}";`,
          ...(face.weight ? [`  font-weight: ${face.weight};`] : []),
          `  src: ${face.locals.map((name) => `local("${name}")`).join(", ")};`,
          `  size-adjust: ${percent(sizeAdjust)};`,
          `  ascent-override: ${percent(ascent / sizeAdjust)};`,
          `  descent-override: ${percent(descent / sizeAdjust)};`,
          `  line-gap-override: ${percent(lineGap / sizeAdjust)};`,
          "}",
        ].join("\n"),
      );
    }
  }
  console.log(rules.join("\n"));
} finally {
  await browser.close();
}

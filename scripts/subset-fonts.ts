/**
 * Writes the site's two font files (src/web/styles/fonts/, ADR 022) from the
 * Latin files of @fontsource-variable/inter and /source-serif-4, cut down to
 * what the site uses, with harfbuzz's subsetter (subset-font):
 * - the same characters (the Latin unicode-range the package declares, so
 *   copy the firm writes in the console is drawn as before);
 * - the weight axis from 400 to 700 (the lightest and boldest the stylesheets
 *   ask for; bolder text is drawn at 700);
 * - the OpenType features a browser applies by itself, plus tabular figures
 *   (the carousel's counter), without the stylistic sets and alternates.
 * Run it when a font package is upgraded, then `scripts/font-fallbacks.ts`:
 *
 *   npx tsx scripts/subset-fonts.ts
 */
import { readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import subsetFont from "subset-font";

const OUT = "src/web/styles/fonts";
const WEIGHTS = { min: 400, max: 700 };
/** What browsers apply to Latin text by themselves, and tabular figures. */
const FEATURES = "calt ccmp clig kern liga locl mark mkmk rlig rvrn tnum".split(" ");

const FONTS = [
  { package: "@fontsource-variable/inter", file: "inter-latin-wght-normal.woff2" },
  {
    package: "@fontsource-variable/source-serif-4",
    file: "source-serif-4-latin-wght-normal.woff2",
  },
];

/** Every character of the package's `unicode-range` for `file` ("U+0000-00FF,U+0131,…"). */
function characters(css: string, file: string): string {
  const rule = css.slice(css.indexOf(`files/${file}`));
  const range = /unicode-range:\s*([^;]+);/.exec(rule)?.[1];
  if (!range) throw new Error(`no unicode-range for ${file}`);
  let text = "";
  for (const part of range.split(",")) {
    const [from = "", to = from] = part.trim().replace("U+", "").split("-");
    for (let code = Number.parseInt(from, 16); code <= Number.parseInt(to, 16); code += 1)
      text += String.fromCodePoint(code);
  }
  return text;
}

for (const font of FONTS) {
  const folder = join("node_modules", font.package);
  const source = readFileSync(join(folder, "files", font.file));
  const css = readFileSync(join(folder, "index.css"), "utf8");
  const subset = await subsetFont(source, characters(css, font.file), {
    targetFormat: "woff2",
    variationAxes: { wght: WEIGHTS },
    keepFeatures: FEATURES,
  });
  const name = font.file.replace("-wght-normal", `-wght-${WEIGHTS.min}-${WEIGHTS.max}`);
  writeFileSync(join(OUT, name), subset);
  console.log(`${name}: ${source.length} → ${subset.length} bytes`);
}

/**
 * `npm run screenshots`: starts the built site on a spare port with a fresh
 * SQLite database and writes every page of the site, a case study's page and
 * the page of an unknown address at 375 and 1440 px to docs/screenshots/,
 * then a few pages as a reader without JavaScript sees them (`*-nojs-*.png`).
 */
import { mkdirSync } from "node:fs";
import { join } from "node:path";
import { chromium } from "@playwright/test";
import { CHROMIUM_LAUNCH } from "../e2e/support/chromium.ts";
import { caseStudyPath, PAGE_PATHS, ROUTES } from "../src/shared/routes.ts";
import { startBuiltSite } from "./built-site.ts";

const PORT = Number(process.env.SCREENSHOT_PORT ?? 4300);
const WIDTHS = [375, 1440] as const;
const OUT_DIR = process.env.SCREENSHOT_DIR ?? "docs/screenshots";
const CASE_STUDY = caseStudyPath("finance-ar-forecast");
const NOT_FOUND = "/no-such-page";
const PATHS = [...PAGE_PATHS, CASE_STUDY, NOT_FOUND];
const NO_SCRIPT_PATHS = [ROUTES.weAre, ROUTES.weServe, CASE_STUDY];

/** "/" → "home", "/weserve/case-studies/x" → "case-study", "/subscribe/confirm" → "subscribe-confirm". */
function nameOf(path: string): string {
  if (path === "/") return "home";
  if (path === CASE_STUDY) return "case-study";
  if (path === NOT_FOUND) return "not-found";
  return path.slice(1).replaceAll("/", "-");
}

const { origin, stop } = await startBuiltSite(PORT);
try {
  mkdirSync(OUT_DIR, { recursive: true });
  const browser = await chromium.launch(CHROMIUM_LAUNCH);
  for (const width of WIDTHS) {
    // Reduced motion: reveal and cascade effects show their final state, videos their poster.
    const page = await browser.newPage({
      viewport: { width, height: 900 },
      reducedMotion: "reduce",
      // The style tag added below is the picture's, not the page's: the site's
      // policy allows no inline style it did not hash.
      bypassCSP: true,
    });
    for (const path of PATHS) {
      await page.goto(`${origin}${path}`, { waitUntil: "networkidle" });
      // Scroll through the page so every fade-in section has been in view.
      await page.evaluate(async () => {
        for (let y = 0; y < document.body.scrollHeight; y += 400) {
          window.scrollTo(0, y);
          await new Promise((resolve) => setTimeout(resolve, 60));
        }
        window.scrollTo(0, 0);
      });
      // Fade-in sections revert when out of view; a full-page picture shows them as a visitor sees them in view.
      await page.addStyleTag({
        content: ".reveal { opacity: 1 !important; transform: none !important; }",
      });
      await page.waitForTimeout(300);
      const file = join(OUT_DIR, `${nameOf(path)}-${width}.png`);
      await page.screenshot({ path: file, fullPage: true });
      console.log(`wrote ${file}`);
    }
    await page.close();

    const noScript = await browser.newPage({
      viewport: { width, height: 900 },
      javaScriptEnabled: false,
    });
    for (const path of NO_SCRIPT_PATHS) {
      await noScript.goto(`${origin}${path}`, { waitUntil: "networkidle" });
      const file = join(OUT_DIR, `${nameOf(path)}-nojs-${width}.png`);
      await noScript.screenshot({ path: file, fullPage: true });
      console.log(`wrote ${file}`);
    }
    await noScript.close();
  }
  await browser.close();
} finally {
  stop();
}

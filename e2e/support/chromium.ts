import { existsSync } from "node:fs";

const FLAGS = [
  "--no-sandbox",
  "--disable-gpu",
  "--disable-background-networking",
  "--disable-component-update",
  "--disable-sync",
  "--no-first-run",
];

/** Debian's Chromium, launched as the developers' guide says: never a downloaded browser. */
export const CHROMIUM_LAUNCH = {
  executablePath: process.env.CHROME_PATH ?? "/usr/bin/chromium",
  args: FLAGS,
};

/**
 * Debian's package chromium-headless-shell: the same Chromium, built as the
 * headless-only shell Playwright itself runs headless tests in. The full
 * browser in headless mode keeps its browser-UI process busy beside each page:
 * on a two-core machine the suite took 8.6 minutes in it, 5.7 in the shell.
 */
const HEADLESS_SHELL = "/usr/bin/chromium-headless-shell";

/** The browser the tests run in: CHROME_PATH, else the headless shell when installed, else the full browser. */
export const TEST_CHROMIUM_LAUNCH = {
  executablePath:
    process.env.CHROME_PATH ??
    (existsSync(HEADLESS_SHELL) ? HEADLESS_SHELL : CHROMIUM_LAUNCH.executablePath),
  args: FLAGS,
};

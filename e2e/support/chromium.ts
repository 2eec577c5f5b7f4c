/** Debian's Chromium, launched as the developers' guide says: never a downloaded browser. */
export const CHROMIUM_LAUNCH = {
  executablePath: process.env.CHROME_PATH ?? "/usr/bin/chromium",
  args: [
    "--no-sandbox",
    "--disable-gpu",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
    "--no-first-run",
  ],
};

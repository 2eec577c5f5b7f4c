/**
 * On the shared test server, which has no mail server and writes its mail
 * to a folder: every console screen says that mail is not being sent, an
 * owner with the folder and what to set, a viewer with whom to tell.
 * Axe-clean; with `npm run screenshots:console` it also writes the banner's
 * screenshots.
 */
import { mkdirSync } from "node:fs";
import { expectNoAxeViolations } from "./support/axe.ts";
import { consoleAccount, signInToConsole } from "./support/console.ts";
import { expectNoSidewaysScroll } from "./support/page.ts";
import { expect, test } from "./support/test.ts";

const banner = (page: import("./support/test.ts").Page) =>
  page.getByRole("status").filter({ hasText: "Mail is not being sent:" });

test("a viewer is told on every screen that mail is not being sent, without the server's paths", async ({
  page,
}) => {
  await signInToConsole(page, await consoleAccount("viewer", "mail-banner"), "/admin/inquiries");
  await expect(banner(page)).toContainText("Tell an owner of the console.");
  await page
    .getByRole("navigation", { name: "Console" })
    .getByRole("link", { name: "Subscribers" })
    .click();
  await expect(page.getByRole("heading", { level: 1, name: "Subscribers" })).toBeVisible();
  await expect(banner(page)).toBeVisible();
  await expect(banner(page)).not.toContainText("SMTP_URL");
  await expectNoAxeViolations(page);
});

test("writes the banner's screenshots @screenshots", async ({ page }) => {
  const dir = "docs/screenshots/admin";
  mkdirSync(dir, { recursive: true });
  await signInToConsole(page, await consoleAccount("owner", "mail-banner"), "/admin/inquiries");
  for (const width of [375, 1440]) {
    await page.setViewportSize({ width, height: 900 });
    await expect(banner(page)).toContainText("Set SMTP_URL");
    await expectNoSidewaysScroll(page);
    await page.screenshot({ path: `${dir}/mail-not-sent-${width}.png`, fullPage: true });
  }
});

/**
 * In the browser, on a server of its own: the owner's Backups page says
 * the schedule in force and lists the latest backups, newest first, each
 * with its time, result in words, size and archive, and why a failed one
 * failed; "Back up now" takes one, which the list shows done by itself,
 * and its Download saves the very archive. It passes axe, and at 375 px
 * nothing scrolls sideways.
 */
import { mkdirSync, mkdtempSync, readFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import type { DatabaseHandle } from "../src/server/platform/db/connection.ts";
import { expectNoAxeViolations } from "./support/axe.ts";
import { signInToConsole } from "./support/console.ts";
import { expectNoSidewaysScroll } from "./support/page.ts";
import { onPreparedServer } from "./support/prepared-database.ts";
import { expect, type Page, test } from "./support/test.ts";

const OWNER = { role: "owner", email: "lena@meridian.example", name: "Lena Fischer" } as const;
const FAILURE = "No space left on device, while writing the archive.";

const DAY = 86_400_000;
/** Today's slot of a daily schedule (00:00 UTC): taken already, so the server takes none of its own. */
const today = () => new Date(Math.floor(Date.now() / DAY) * DAY).toISOString();

/** Two scheduled backups: yesterday's good one, today's failed one. */
async function writeBackups({ db }: DatabaseHandle) {
  const yesterday = new Date(Date.now() - DAY).toISOString();
  await db
    .insertInto("backups")
    .values([
      {
        trigger: "scheduled",
        slot: yesterday,
        started_at: yesterday,
        finished_at: yesterday,
        result: "ok",
        file: "backup-yesterday.tar.gz",
        size: 3 * 1024 * 1024,
        copied_to: "s3://firm-backups/backup-yesterday.tar.gz",
      },
      {
        trigger: "scheduled",
        slot: today(),
        started_at: new Date().toISOString(),
        finished_at: new Date().toISOString(),
        result: "failed",
        reason: FAILURE,
      },
    ])
    .execute();
}

async function onBackupsPage(page: Page, label: string, use: (backupDir: string) => Promise<void>) {
  const backupDir = mkdtempSync(join(tmpdir(), "e2e-backups-"));
  await onPreparedServer(
    label,
    OWNER,
    writeBackups,
    async (server) => {
      await signInToConsole(page, server.account, `${server.origin}/admin/backups`);
      await expect(page.getByRole("heading", { level: 1, name: "Backups" })).toBeVisible();
      await use(backupDir);
    },
    { BACKUP_EVERY_HOURS: "24", BACKUP_KEEP: "7", BACKUP_DIR: backupDir },
  );
}

test("an owner sees the schedule and the latest backups with their results", async ({ page }) => {
  test.info().setTimeout(90_000);
  await onBackupsPage(page, "backups-page", async () => {
    await expect(
      page.getByText("The server takes a backup every 24 hours and keeps the newest 7."),
    ).toBeVisible();
    const rows = page.getByRole("row");
    await expect(rows.nth(1)).toContainText("Failed");
    await expect(rows.nth(1)).toContainText(FAILURE);
    await expect(rows.nth(2)).toContainText("Completed");
    await expect(rows.nth(2)).toContainText("3 MB");
    await expect(rows.nth(2)).toContainText("backup-yesterday.tar.gz");
    await expect(rows.nth(2)).toContainText("Copied to s3://firm-backups/backup-yesterday.tar.gz");
    await expect(page.getByRole("link", { name: "Backups" })).toBeVisible();
    await expectNoAxeViolations(page);
  });
});

test("Back up now takes a backup the list shows done, and Download saves its archive", async ({
  page,
}) => {
  test.info().setTimeout(90_000);
  await onBackupsPage(page, "backups-now", async (backupDir) => {
    await page.getByRole("button", { name: "Back up now" }).click();
    await expect(
      page.getByRole("status").filter({ hasText: "The backup has started." }),
    ).toBeVisible();
    // The screen reads the list again while the backup runs: no reload.
    const download = page.getByRole("link", { name: /^Download backup-20/ });
    await expect(download).toBeVisible({ timeout: 30_000 });
    await expect(page.getByRole("button", { name: "Back up now" })).toBeEnabled();
    const name = ((await download.textContent()) ?? "").replace("Download ", "");
    const saving = page.waitForEvent("download");
    await download.click();
    const saved = await saving;
    expect(saved.suggestedFilename()).toBe(name);
    const bytes = readFileSync((await saved.path()) ?? "");
    expect(bytes.equals(readFileSync(join(backupDir, name)))).toBe(true);
    await expectNoAxeViolations(page);
  });
});

test.describe("at 375 px", () => {
  test.use({ viewport: { width: 375, height: 800 } });

  test("the list fits the phone", async ({ page }) => {
    test.info().setTimeout(90_000);
    await onBackupsPage(page, "backups-phone", async () => {
      await expect(page.getByText(FAILURE)).toBeVisible();
      await expectNoSidewaysScroll(page);
      await expectNoAxeViolations(page);
    });
  });
});

test("writes the screen's screenshots @screenshots", async ({ page }) => {
  const dir = "docs/screenshots/admin";
  mkdirSync(dir, { recursive: true });
  test.info().setTimeout(90_000);
  await onBackupsPage(page, "backups-shots", async () => {
    await page.getByRole("button", { name: "Back up now" }).click();
    await expect(page.getByRole("link", { name: /^Download backup-20/ })).toBeVisible({
      timeout: 30_000,
    });
    for (const width of [375, 1440]) {
      await page.setViewportSize({ width, height: 900 });
      await expect(page.getByText(FAILURE)).toBeVisible();
      await page.screenshot({ path: `${dir}/backups-${width}.png`, fullPage: true });
    }
  });
});

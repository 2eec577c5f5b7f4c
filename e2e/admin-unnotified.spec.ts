/**
 * Inquiries the firm was not notified of, in the browser, on a server of its
 * own whose database holds one whose notification the sender gave up on: the
 * inbox and the inquiry mark it "Not notified", and a banner over every
 * screen says so until someone opens it. Axe-clean at 375 and 1440 px; with
 * `npm run screenshots:console` it also writes the screens' screenshots.
 */
import { mkdirSync } from "node:fs";
import type { DatabaseHandle } from "../src/server/platform/db/connection.ts";
import { NOT_NOTIFIED_LABEL, unnotifiedBanner } from "../src/shared/admin/inquiries.ts";
import { expectNoAxeViolations } from "./support/axe.ts";
import { signInToConsole } from "./support/console.ts";
import { expectNoSidewaysScroll } from "./support/page.ts";
import { onPreparedServer, type PreparedServer } from "./support/prepared-database.ts";
import { expect, type Page, test } from "./support/test.ts";

const VIEWER = { role: "viewer", email: "sam@meridian.example", name: "Sam Okafor" } as const;
const HOUR_MS = 3_600_000;

/** One inquiry told to the firm, and one whose notification failed for good. */
async function seedInquiries({ db }: DatabaseHandle) {
  const at = (hoursAgo: number) => new Date(Date.now() - hoursAgo * HOUR_MS).toISOString();
  const notification = (status: "sent" | "failed", hoursAgo: number) =>
    db
      .insertInto("outbox")
      .values({
        kind: "inquiry-notification",
        message: JSON.stringify({ to: "inquiries@meridian.example", subject: "New inquiry" }),
        status,
        next_attempt_at: at(hoursAgo),
        attempts: status === "failed" ? 8 : 1,
        last_error:
          status === "failed" ? "550 5.1.1 <inquiries@meridian.example>: User unknown" : null,
        created_at: at(hoursAgo),
        updated_at: at(hoursAgo),
      })
      .returning("id")
      .executeTakeFirstOrThrow();
  const inquiry = (name: [string, string], company: string, outboxId: number, hoursAgo: number) =>
    db
      .insertInto("inquiries")
      .values({
        first_name: name[0],
        last_name: name[1],
        company,
        job_title: "Head of Operations",
        email: `${name[0].toLowerCase()}@${company.split(" ")[0]?.toLowerCase()}.example`,
        phone_number: "+44 20 7946 0000",
        inquiry_type: "Predictive Analytics",
        comments: "Our forecasts no longer keep up with demand. Could we talk next week?",
        notification_outbox_id: outboxId,
        created_at: at(hoursAgo),
        updated_at: at(hoursAgo),
      })
      .execute();
  await inquiry(
    ["Grace", "Hopper"],
    "Harvard Computation Lab",
    (await notification("sent", 5)).id,
    5,
  );
  await inquiry(
    ["Katherine", "Johnson"],
    "Langley Research",
    (await notification("failed", 2)).id,
    2,
  );
}

/** Runs `use` signed in as a viewer of a server whose inbox holds the seeded inquiries. */
function onInquiries(p: Page, label: string, use: (server: PreparedServer) => Promise<void>) {
  return onPreparedServer(label, VIEWER, seedInquiries, async (server) => {
    await signInToConsole(p, server.account, `${server.origin}/admin/inquiries`);
    await use(server);
  });
}

const banner = (p: Page) => p.getByRole("status").filter({ hasText: unnotifiedBanner(1) });
const row = (p: Page, name: string) => p.getByRole("row").filter({ hasText: name });

test("the banner stays on every screen until someone opens the inquiry the firm was not told of", async ({
  page: p,
}) => {
  test.info().setTimeout(90_000);
  await onInquiries(p, "unnotified-journey", async () => {
    await expect(banner(p)).toBeVisible();
    await expect(row(p, "Katherine Johnson")).toContainText(NOT_NOTIFIED_LABEL);
    await expect(row(p, "Grace Hopper")).not.toContainText(NOT_NOTIFIED_LABEL);
    await expectNoAxeViolations(p);

    // Another screen keeps it, and opening the told inquiry does not end it.
    await p.getByRole("link", { name: "Grace Hopper" }).click();
    await expect(p.getByRole("heading", { level: 1, name: "Grace Hopper" })).toBeVisible();
    await expect(banner(p)).toBeVisible();

    await p.getByRole("link", { name: "Open the inbox" }).click();
    await p.getByRole("link", { name: "Katherine Johnson" }).click();
    await expect(p.getByRole("heading", { level: 1, name: "Katherine Johnson" })).toBeVisible();
    await expect(p.locator(".inquiry-sub")).toContainText(NOT_NOTIFIED_LABEL);
    await expectNoAxeViolations(p);

    // Opened: the next screen has no banner, and the badge stays on the row.
    await p.getByRole("link", { name: "All inquiries" }).click();
    await expect(row(p, "Katherine Johnson")).toContainText(NOT_NOTIFIED_LABEL);
    await expect(banner(p)).toHaveCount(0);
  });
});

test.describe("at 375 px", () => {
  test.use({ viewport: { width: 375, height: 800 } });

  test("the banner and the badges fit and pass axe", async ({ page: p }) => {
    test.info().setTimeout(90_000);
    await onInquiries(p, "unnotified-phone", async () => {
      await expect(banner(p)).toBeVisible();
      await expect(row(p, "Katherine Johnson")).toContainText(NOT_NOTIFIED_LABEL);
      await expectNoSidewaysScroll(p);
      await expectNoAxeViolations(p);
    });
  });
});

test("writes the screens' screenshots @screenshots", async ({ page: p }) => {
  const dir = "docs/screenshots/admin";
  mkdirSync(dir, { recursive: true });
  test.info().setTimeout(90_000);
  await onInquiries(p, "unnotified-shots", async (server) => {
    for (const width of [375, 1440]) {
      await p.setViewportSize({ width, height: 900 });
      await p.goto(`${server.origin}/admin/inquiries`);
      await expect(banner(p)).toBeVisible();
      await expect(row(p, "Katherine Johnson")).toBeVisible();
      await p.screenshot({
        path: `${dir}/inquiries-not-notified-list-${width}.png`,
        fullPage: true,
      });
    }
    // Opening the inquiry ends the banner, so the detail comes last.
    for (const width of [375, 1440]) {
      await p.setViewportSize({ width, height: 900 });
      await p.goto(`${server.origin}/admin/inquiries`);
      await p.getByRole("link", { name: "Katherine Johnson" }).click();
      await expect(p.locator(".inquiry-sub")).toContainText(NOT_NOTIFIED_LABEL);
      await p.screenshot({
        path: `${dir}/inquiries-not-notified-detail-${width}.png`,
        fullPage: true,
      });
    }
  });
});

/**
 * In the browser, on a server of its own whose database holds a few
 * suppressed addresses, each put there by a report as the mailbox reader or
 * the sender would record it: an owner filters by reason, opens a report,
 * lifts a suppression through the dialog and sees it gone; the subscribers
 * list marks an address still suppressed. Every state passes axe, and at
 * 375 px nothing but the table scrolls sideways while each row's reason
 * stays in sight. With `npm run screenshots:console` it also writes the
 * area's screenshots.
 */
import { mkdirSync } from "node:fs";
import { type NewReport, recordReport } from "../src/server/features/deliverability/index.ts";
import type { DatabaseHandle } from "../src/server/platform/db/connection.ts";
import { SUPPRESSION_TEXTS } from "../src/shared/admin/suppressions.ts";
import { expectNoAxeViolations } from "./support/axe.ts";
import { signInToConsole } from "./support/console.ts";
import { expectNoSidewaysScroll, expectWhollyInView } from "./support/page.ts";
import {
  onPreparedServer,
  type PreparedServer,
  writeSentIssue,
} from "./support/prepared-database.ts";
import { expect, type Locator, type Page, test } from "./support/test.ts";

const DAY_MS = 86_400_000;
const POLICY = { limit: 3, days: 15 };
const OWNER = { role: "owner", email: "lena@meridian.example", name: "Lena Fischer" } as const;

const GONE = "tim.berners-lee@cern-alumni.example";
const FULL = "grace.hopper@navy-mail.example";
const ANNOYED = "alan.turing@bletchley.example";
const LONG = "procurement.notifications-and-invoices@a-rather-long-company-name.example";
const MOVED = "radia.perlman@old-employer.example";

const ISSUE = {
  slug: "cloud-costs-2027",
  title: "What cloud costs will look like in 2027",
  summary: "Reserved capacity, egress and the bills nobody reads.",
  body: "## Cloud costs\n\nWhat we learned from forty migrations.",
};

const REFUSED_RCPT = `550 5.1.1 <${GONE}>: Recipient address rejected: User unknown in virtual mailbox table`;

const MAILBOX_FULL = `This is the mail system at host mx1.navy-mail.example.

I'm sorry to have to inform you that your message could not
be delivered to one or more recipients. It's attached below.

<${FULL}>: host mailstore.navy-mail.example[198.51.100.23] said:
    452 4.2.2 <${FULL}>: Recipient mailbox is full, please try again
    later (in reply to RCPT TO command)`;

const COMPLAINT = `This is an email abuse report for an email message received from IP 203.0.113.9 on ${new Date().toUTCString()}.
The recipient marked the message as spam in their mail program.
For more information about this format please see http://www.mipassoc.org/arf/.`;

const NO_SUCH_DOMAIN = (
  address: string,
) => `This message was created automatically by mail delivery software.

A message that you sent could not be delivered to one or more of its
recipients. This is a permanent error. The following address(es) failed:

  ${address}
    host mx.a-rather-long-company-name.example [192.0.2.44]
    SMTP error from remote mail server after RCPT TO:<${address}>:
    550 5.1.2 The domain of this address no longer accepts mail; the mailbox was closed when the company merged into its parent`;

function reportFor(email: string, kind: NewReport["kind"], extra: Partial<NewReport>): NewReport {
  return {
    email,
    kind,
    status: null,
    source: "mailbox",
    sourceKey: null,
    outboxId: null,
    messageKind: "newsletter",
    issueId: null,
    text: "",
    ...extra,
  };
}

/** A sent issue, and five suppressed addresses with the reports that put them on the list. */
async function seedSuppressions(database: DatabaseHandle) {
  const { db } = database;
  const now = Date.now();
  const daysAgo = (days: number) => new Date(now - days * DAY_MS);
  const sentAt = daysAgo(20).toISOString();
  const issueId = await writeSentIssue(database, ISSUE, { author: OWNER.email, sentAt });
  const record = (report: NewReport, at: Date) => recordReport(db, report, POLICY, at);

  await record(
    reportFor(MOVED, "hard", { status: "5.1.1", text: NO_SUCH_DOMAIN(MOVED) }),
    daysAgo(40),
  );
  await record(
    reportFor(GONE, "hard", {
      status: "5.1.1",
      source: "smtp",
      issueId,
      text: REFUSED_RCPT,
    }),
    daysAgo(20),
  );
  for (const days of [9, 6, 3]) {
    await record(reportFor(FULL, "soft", { status: "4.2.2", text: MAILBOX_FULL }), daysAgo(days));
  }
  await record(
    reportFor(ANNOYED, "complaint", {
      source: "webhook:mailgun",
      issueId,
      text: COMPLAINT,
    }),
    daysAgo(2),
  );
  await record(
    reportFor(LONG, "hard", { status: "5.1.2", text: NO_SUCH_DOMAIN(LONG) }),
    daysAgo(1),
  );
  // Two of them read Insight: the subscribers list marks them.
  for (const email of [FULL, ANNOYED]) {
    await db
      .insertInto("subscriptions")
      .values({
        email,
        subscribed_at: daysAgo(200).toISOString(),
        subscribed_via: "website",
        confirmed_at: daysAgo(200).toISOString(),
        created_at: daysAgo(200).toISOString(),
        updated_at: daysAgo(200).toISOString(),
      })
      .execute();
  }
}

/** Runs `use` signed in as the owner of a server whose list holds the seeded suppressions. */
function onSuppressions(page: Page, label: string, use: (server: PreparedServer) => Promise<void>) {
  return onPreparedServer(label, OWNER, seedSuppressions, async (server) => {
    await signInToConsole(page, server.account, `${server.origin}/admin/suppressions`);
    await expect(
      page.getByRole("heading", { level: 1, name: "Suppressed addresses" }),
    ).toBeVisible();
    await use(server);
  });
}

const summary = (page: Page, text: string) => page.getByRole("status").filter({ hasText: text });

const row = (page: Page, email: string) => page.getByRole("row").filter({ hasText: email });

/** The element shows within the table's frame as it first appears, without scrolling the table. */
async function expectWithinTable(page: Page, element: Locator) {
  const table = page.getByRole("region", { name: "Suppressed addresses, newest first" });
  const [box, frame] = await Promise.all([element.boundingBox(), table.boundingBox()]);
  if (!box || !frame) throw new Error("the element or the table is not shown");
  expect(box.x).toBeGreaterThanOrEqual(frame.x);
  expect(box.x + box.width).toBeLessThanOrEqual(frame.x + frame.width);
}

test("an owner filters by reason, reads a report and lifts a suppression", async ({ page }) => {
  test.info().setTimeout(90_000);
  await onSuppressions(page, "suppressions-lift", async (server) => {
    await expect(summary(page, "5 addresses match.")).toBeVisible();
    await expectNoAxeViolations(page);

    await page.getByRole("combobox", { name: "Reason" }).selectOption({ label: "Hard bounce" });
    await page.getByRole("button", { name: "Search" }).click();
    await expect(page).toHaveURL(/\?reason=hard-bounce$/);
    await expect(summary(page, "3 addresses match.")).toBeVisible();
    await expect(row(page, ANNOYED)).toHaveCount(0);

    const show = page.getByRole("button", { name: `Show report on ${GONE}` });
    await show.click();
    const report = page.getByRole("region", { name: `Report on ${GONE}` });
    await expect(report).toContainText("Hard bounce, status 5.1.1");
    await expect(report).toContainText("Refused while sending");
    await expect(report.getByRole("link", { name: ISSUE.title })).toBeVisible();
    await expect(report).toContainText("User unknown in virtual mailbox table");
    await expect(page.getByRole("button", { name: `Hide report on ${GONE}` })).toHaveAttribute(
      "aria-expanded",
      "true",
    );
    await expectNoAxeViolations(page);

    await page.getByRole("button", { name: `Lift the suppression of ${GONE}…` }).click();
    const dialog = page.getByRole("alertdialog", { name: "Lift this suppression?" });
    await expect(dialog).toContainText(GONE);
    await expect(dialog).toContainText("Insight and other mail will be sent to this address again");
    await expectNoAxeViolations(page);
    await dialog.getByRole("button", { name: "Lift suppression" }).click();
    await expect(dialog).toBeHidden();
    await expect(summary(page, SUPPRESSION_TEXTS.lifted(GONE))).toBeVisible();
    await expect(summary(page, "2 addresses match.")).toBeVisible();
    await expect(row(page, GONE)).toHaveCount(0);
    await expect(page.getByRole("heading", { level: 1 })).toBeFocused();

    // The subscribers list marks an address that is still suppressed, and only that one.
    await page.goto(`${server.origin}/admin/subscribers`);
    await expect(row(page, FULL)).toContainText("Suppressed");
    await expect(row(page, ANNOYED)).toContainText("Suppressed");
  });
});

test.describe("at 375 px", () => {
  test.use({ viewport: { width: 375, height: 800 } });

  test("the list, an opened report and the lift dialog fit, the reasons in sight", async ({
    page,
  }) => {
    test.info().setTimeout(90_000);
    await onSuppressions(page, "suppressions-phone", async () => {
      await expect(summary(page, "5 addresses match.")).toBeVisible();
      await expectNoSidewaysScroll(page);
      for (const reason of ["Hard bounce", "Complaint", "Repeated soft bounces"]) {
        await expectWithinTable(page, page.getByRole("cell", { name: reason }).first());
      }
      await expectNoAxeViolations(page);

      await page.getByRole("button", { name: `Show report on ${LONG}` }).click();
      const report = page.getByRole("region", { name: `Report on ${LONG}` });
      await expect(report).toContainText("5.1.2");
      await expectNoSidewaysScroll(page);
      // The report keeps to what the phone shows of the table, however wide the table is.
      await expectWithinTable(page, report);
      await expectNoAxeViolations(page);

      const lift = page.getByRole("button", { name: `Lift the suppression of ${ANNOYED}…` });
      await lift.click();
      const dialog = page.getByRole("alertdialog");
      await expectWhollyInView(dialog);
      await expectNoAxeViolations(page);
      await page.keyboard.press("Escape");
      await expect(dialog).toBeHidden();
      await expect(lift).toBeFocused();
    });
  });
});

test("writes the area's screenshots @screenshots", async ({ page }) => {
  const dir = "docs/screenshots/admin";
  mkdirSync(dir, { recursive: true });
  test.info().setTimeout(90_000);
  await onSuppressions(page, "suppressions-shots", async () => {
    for (const width of [375, 1440]) {
      await page.setViewportSize({ width, height: 900 });
      await page.reload();
      await expect(summary(page, "5 addresses match.")).toBeVisible();
      await page.getByRole("button", { name: `Show report on ${FULL}` }).click();
      await expect(page.getByRole("region", { name: `Report on ${FULL}` })).toBeVisible();
      // Opening the report scrolled the page; the picture starts at its top.
      await page.evaluate(() => window.scrollTo(0, 0));
      await page.screenshot({ path: `${dir}/suppressions-${width}.png`, fullPage: true });
    }
  });
});

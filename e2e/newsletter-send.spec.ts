/**
 * A send from end to end: an editor writes an issue in the console, previews it,
 * sends a test, sends it to a few hundred subscribers through a real SMTP
 * server (smtp-server, in this test), watches the progress reach 100 %; one
 * recipient unsubscribes through the link in their copy, another follows a
 * link of theirs to the site, and the issue's figures count both; the issue
 * reads at /insight/<slug>; then the editor corrects its archive page's title, which
 * the site shows, withdraws it from the archive (after a confirmation), where
 * it is then gone, and puts it back. A second issue goes to a segment: the
 * readers with some tags, counted as the editor ticks them. On a server of
 * its own, so no other test's subscribers, mailbox or archive are touched.
 */
import { mkdirSync } from "node:fs";
import { devices } from "@playwright/test";
import { NOTHING_TICKED } from "../src/admin/screens/newsletter/recipients.ts";
import type { DatabaseHandle } from "../src/server/platform/db/connection.ts";
import { NO_TAG_CHOSEN } from "../src/shared/admin/newsletter.ts";
import { SUBSCRIBER_ROUTES, subscriberListSchema } from "../src/shared/admin/subscribers.ts";
import { insightIssuePath } from "../src/shared/routes.ts";
import { addSubscribers } from "../test/support/newsletter.ts";
import type { ReceivedMail, TestSmtp } from "../test/support/smtp.ts";
import { expectNoAxeViolations } from "./support/axe.ts";
import { type ConsoleAccount, signInToConsole } from "./support/console.ts";
import { type OwnServer, startOwnServer } from "./support/own-server.ts";
import { expectNoSidewaysScroll } from "./support/page.ts";
import {
  onPreparedServer,
  preparedDatabase,
  writeConsoleAccount,
  writeSentCopies,
  writeSentIssue,
} from "./support/prepared-database.ts";
import { previewFrame, test } from "./support/previews.ts";
import { expect } from "./support/test.ts";

const SUBSCRIBERS = 300;
const EDITOR = "sender-editor@firm.example";
const TITLE = "What the cloud bill hides";
const SLUG = "what-the-cloud-bill-hides";
const CORRECTED_TITLE = "What the cloud bill hides, corrected";

const unsubscribeLinkIn = (mail: ReceivedMail) =>
  /https?:\/\/\S+\/unsubscribe\?token=[\w.-]+/.exec(mail.parsed.text ?? "")?.[0];

/**
 * A reader's browser: not the signed-in editor's (the firm's own clicks are
 * not counted), and a Chrome of its own (a headless one is taken for a robot).
 */
const READER_AGENT = devices["Desktop Chrome"].userAgent.replace(
  /Chrome\/[\d.]+/,
  "Chrome/131.0.4242.0",
);

/** The tags some readers have, for the send to a segment. */
const SEGMENT_TAGS: Record<string, string[]> = {
  "reader-100@example.com": ["clients"],
  "reader-101@example.com": ["clients"],
  "reader-102@example.com": ["clients", "partners"],
  "reader-103@example.com": ["partners"],
};

async function tagReaders(database: DatabaseHandle, tags: Record<string, string[]>) {
  const rows = await database.db
    .selectFrom("subscriptions")
    .select(["id", "email"])
    .where("email", "in", Object.keys(tags))
    .execute();
  await database.db
    .insertInto("subscription_tags")
    .values(
      rows.flatMap(({ id, email }) =>
        (tags[email] ?? []).map((tag) => ({ subscription_id: id, tag })),
      ),
    )
    .execute();
}

test.describe("sending an Insight issue", () => {
  // One server for both sends: in one worker, one after the other.
  test.describe.configure({ mode: "default" });
  let own: OwnServer;
  let smtp: TestSmtp;
  let origin: string;
  let editor: ConsoleAccount;

  test.beforeAll(async () => {
    // A server process of its own starts (and renders its pages) first.
    test.setTimeout(90_000);
    // The readers and the editor are in the database before the server opens it.
    const sqliteFile = await preparedDatabase("newsletter-send", async (database) => {
      await addSubscribers(database, "reader", SUBSCRIBERS);
      await tagReaders(database, SEGMENT_TAGS);
      await database.db
        .updateTable("subscriptions")
        .set({ first_name: "Ada", last_name: "Lovelace" })
        .where("email", "=", "reader-100@example.com")
        .execute();
      editor = await writeConsoleAccount(database, "editor", EDITOR, "Editor");
    });
    own = await startOwnServer("newsletter-send", {
      NEWSLETTER_RATE_PER_SECOND: "100",
      SQLITE_FILE: sqliteFile,
    });
    ({ smtp, origin } = own);
  });
  test.afterAll(() => own?.close());

  test("an editor writes, previews, tests and sends an issue; a reader unsubscribes and reads it on the site", async ({
    page,
    browser,
  }) => {
    test.setTimeout(120_000);
    await signInToConsole(page, editor, `${origin}/admin`);

    // Write.
    await page.goto(`${origin}/admin/newsletter/new`);
    await page.getByLabel("Title").fill(TITLE);
    await expect(page.getByLabel("Address")).toHaveValue(SLUG);
    await page
      .getByLabel("Summary")
      .fill("Idle capacity, and the three changes that bring the money back.");
    await page
      .getByLabel("Body")
      .fill(
        "## Where the money goes\n\nMostly to *idle capacity*.\n\n> Measure first, then cut.\n\n- Turn off what nobody uses\n- Let the peaks scale\n\nSee [what we do](/wedo).",
      );
    await page.getByRole("button", { name: "Create draft" }).click();
    await expect(page.getByText(/^Created as a draft\./)).toBeVisible();
    const issueScreen = page.url();

    // Preview: the e-mail at desktop and phone width, the web page, the text.
    const desktop = previewFrame(page, "The e-mail at a desktop mail program's width");
    await expect(desktop.getByRole("heading", { name: TITLE })).toBeVisible();
    await page.getByRole("radio", { name: "Phone" }).check();
    await expect(
      previewFrame(page, "The e-mail at a phone's width").getByText("Where the money goes"),
    ).toBeVisible();
    await page.getByRole("radio", { name: "Web page" }).check();
    await expect(
      previewFrame(page, "The issue's page in the archive on the site").getByRole("heading", {
        name: TITLE,
      }),
    ).toBeVisible();

    // A test to the editor's own address.
    await page.getByRole("button", { name: "Send a test" }).click();
    await expect(page.getByText(`A test was queued to ${EDITOR}.`, { exact: false })).toBeVisible();
    const [testCopy] = await smtp.waitForMailTo(EDITOR);
    expect(testCopy?.parsed.subject).toBe(`[Test] ${TITLE}`);

    // Send to every subscriber, and watch it reach 100 %.
    await page.getByRole("button", { name: "Send now…" }).click();
    await page.getByRole("button", { name: `Send to ${SUBSCRIBERS} active subscribers` }).click();
    await expect(page.locator(".progress-summary")).toContainText("Sent: 100 %", {
      timeout: 60_000,
    });
    await expect(page.getByRole("progressbar")).toHaveAttribute("value", "1");

    const copies = smtp.received.filter((mail) => mail.parsed.subject === TITLE);
    const readers = new Set(copies.map((mail) => mail.recipients[0]));
    expect(copies).toHaveLength(SUBSCRIBERS);
    expect(readers.size).toBe(SUBSCRIBERS);

    // One reader leaves through the link in their copy.
    const copy = copies.find((mail) => mail.recipients[0] === "reader-7@example.com");
    const link = copy && unsubscribeLinkIn(copy);
    expect(link).toBeDefined();
    await page.goto(link ?? "");
    await page.getByRole("button", { name: /unsubscribe/i }).click();
    await expect(page.getByText(/unsubscribed/i).first()).toBeVisible();
    // The console, where the editor is still signed in, lists the reader as gone.
    const found = await page.request.get(
      `${origin}${SUBSCRIBER_ROUTES.list}?q=${encodeURIComponent("reader-7@example.com")}`,
    );
    expect(found.ok()).toBe(true);
    const { items } = subscriberListSchema.parse(await found.json());
    expect(items.map(({ email, status }) => ({ email, status }))).toEqual([
      { email: "reader-7@example.com", status: "unsubscribed" },
    ]);

    // Another follows the link to /wedo in their copy, from their own browser.
    const clickLink = /https?:\/\/\S+\/link\/2\b/.exec(copies[3]?.parsed.text ?? "")?.[0];
    expect(clickLink).toBe(`${origin}${insightIssuePath(SLUG)}/link/2`);
    const reader = await browser.newContext({ userAgent: READER_AGENT });
    const readerPage = await reader.newPage();
    await readerPage.goto(clickLink ?? "");
    await expect(readerPage).toHaveURL(
      `${origin}/wedo?utm_source=insight&utm_medium=email&utm_campaign=${SLUG}`,
    );
    await reader.close();
    // The issue's screen counts the click and the unsubscribe, and names the link.
    await page.goto(issueScreen);
    const brought = page.getByRole("region", { name: "What it brought" });
    const wedo = brought.getByRole("row").filter({ hasText: "/wedo" });
    await expect(wedo.getByRole("cell")).toHaveText("1");
    await expect(
      brought
        .locator("dl > div")
        .filter({ has: page.getByText("Unsubscribed", { exact: true }) })
        .locator("dd"),
    ).toHaveText("1 (0.3 %)");
    // On a phone too, it fits and reads to a screen reader.
    await page.setViewportSize({ width: 375, height: 812 });
    await expectNoSidewaysScroll(page);
    await expectNoAxeViolations(page);
    await page.setViewportSize({ width: 1280, height: 720 });

    // And the issue reads on the site, where its "view in browser" link leads.
    expect(copy?.parsed.text).toContain(`${origin}${insightIssuePath(SLUG)}/link/1`);
    await page.goto(`${origin}${insightIssuePath(SLUG)}`);
    await expect(page.getByRole("heading", { level: 1, name: TITLE })).toBeVisible();
    await expect(page.getByText("Mostly to idle capacity.")).toBeVisible();

    // The editor corrects the archive page's title; the site shows it at once.
    await page.goto(issueScreen);
    const archive = page.getByRole("region", { name: "In the archive", exact: true });
    await archive.getByText("Correct the page", { exact: true }).click();
    await archive.getByLabel("Title").fill(CORRECTED_TITLE);
    await archive.getByRole("button", { name: "Save the correction" }).click();
    await expect(archive.getByText(/^Corrected as version \d+\./)).toBeVisible();
    await page.goto(`${origin}${insightIssuePath(SLUG)}`);
    await expect(page.getByRole("heading", { level: 1, name: CORRECTED_TITLE })).toBeVisible();

    // Withdrawn, after a confirmation: the archive no longer lists it, and its address is gone.
    await page.goto(issueScreen);
    await archive.getByRole("button", { name: "Withdraw from the archive…" }).click();
    const confirm = page.getByRole("alertdialog", {
      name: "Withdraw this issue from the archive?",
    });
    await confirm.getByRole("button", { name: "Withdraw", exact: true }).click();
    await expect(archive.getByText(/^Withdrawn on/)).toBeVisible();
    await page.goto(`${origin}/insight`);
    await expect(page.getByText(CORRECTED_TITLE)).toHaveCount(0);
    expect((await page.request.get(`${origin}${insightIssuePath(SLUG)}`)).status()).toBe(410);

    // Put back, it reads on the site again.
    await page.goto(issueScreen);
    await archive.getByRole("button", { name: "Put back in the archive" }).click();
    await expect(archive.getByText(/^Published at/)).toBeVisible();
    await page.goto(`${origin}${insightIssuePath(SLUG)}`);
    await expect(page.getByRole("heading", { level: 1, name: CORRECTED_TITLE })).toBeVisible();
  });

  test("an editor previews an issue as a named reader and sends it to the subscribers with some tags", async ({
    page,
  }) => {
    test.setTimeout(60_000);
    const title = "For clients and partners";
    await signInToConsole(page, editor, `${origin}/admin/newsletter/new`);
    await page.getByLabel("Title").fill(title);
    await page.getByLabel("Summary").fill("What changed for the people we work with.");
    await page
      .getByLabel("Body")
      .fill("Dear {first_name|reader},\n\nA note for the people we work with.");
    await page.getByRole("button", { name: "Create draft" }).click();
    await expect(page.getByText(/^Created as a draft\./)).toBeVisible();

    // The preview reads the fallback, then as the reader picked.
    const frame = previewFrame(page, "The e-mail at a desktop mail program's width");
    await expect(frame.getByText("Dear reader,")).toBeVisible();
    await page
      .getByLabel("Read it as")
      .selectOption({ label: "Ada Lovelace (reader-100@example.com)" });
    await expect(
      previewFrame(page, "The e-mail at a desktop mail program's width").getByText("Dear Ada,"),
    ).toBeVisible();

    const choice = page.getByRole("group", { name: "Who gets it" });
    const reach = choice.locator(".recipients-reach");
    await choice.getByRole("radio", { name: "Subscribers with some tags" }).check();
    await expect(reach).toHaveText(NOTHING_TICKED);
    // Sending with no tag ticked is refused beside the tags, and nothing opens.
    await page.getByRole("button", { name: "Send now…" }).click();
    await expect(choice.getByText(NO_TAG_CHOSEN)).toBeVisible();
    await expect(page.getByRole("alertdialog")).toHaveCount(0);

    await choice.getByRole("checkbox", { name: "clients (3)" }).check();
    await expect(reach).toHaveText("Goes to 3 active subscribers.");
    await choice.getByRole("checkbox", { name: "partners (2)" }).check();
    await expect(reach).toHaveText("Goes to 4 active subscribers.");
    await choice.getByRole("radio", { name: "All of these" }).check();
    await expect(reach).toHaveText("Goes to 1 active subscriber.");
    await choice.getByRole("radio", { name: "Any of these" }).check();
    await expect(reach).toHaveText("Goes to 4 active subscribers.");

    await page.getByRole("button", { name: "Send now…" }).click();
    const confirm = page.getByRole("alertdialog", { name: `Send “${title}” now?` });
    await expect(
      confirm.getByText("It goes to 4 active subscribers tagged “clients” or “partners”."),
    ).toBeVisible();
    await confirm.getByRole("button", { name: "Send to 4 active subscribers" }).click();
    await expect(page.locator(".progress-summary")).toContainText("Sent: 100 %", {
      timeout: 30_000,
    });
    await expect(
      page.locator(".progress-times > div").filter({ hasText: "To" }).locator("dd"),
    ).toHaveText("Active subscribers tagged “clients” or “partners”");
    const to = smtp.received
      .filter((mail) => mail.parsed.subject === title)
      .flatMap((mail) => mail.recipients)
      .sort();
    expect(to).toEqual(Object.keys(SEGMENT_TAGS).sort());
    const textTo = (address: string) =>
      smtp.received.find((mail) => mail.parsed.subject === title && mail.recipients[0] === address)
        ?.parsed.text;
    expect(textTo("reader-100@example.com")).toContain("Dear Ada,");
    expect(textTo("reader-101@example.com")).toContain("Dear reader,");
  });
});

test("writes the screenshots of an issue's figures @screenshots", async ({ page }) => {
  test.setTimeout(90_000);
  const dir = "docs/screenshots/admin";
  mkdirSync(dir, { recursive: true });
  const sentAt = new Date(Date.now() - 3 * 24 * 60 * 60 * 1000).toISOString();
  let issueId = 0;
  await onPreparedServer(
    "issue-figures-shots",
    { role: "viewer", email: "figures-viewer@firm.example", name: "Priya Raman" },
    async (database) => {
      const { db } = database;
      issueId = await writeSentIssue(
        database,
        {
          title: "Three signs your cloud bill is hiding idle capacity",
          slug: "cloud-bill-signs",
          summary: "Idle capacity, and the three changes that bring the money back.",
          body: "A body with links.",
        },
        { author: "editor@firm.example", sentAt, recipients: 1240 },
      );
      const origin = "https://www.meridian.example";
      const tags = "utm_source=insight&utm_medium=email&utm_campaign=cloud-bill-signs";
      const links = [
        `${origin}/insight/cloud-bill-signs?${tags}`,
        `${origin}/wedo?${tags}`,
        "https://www.finops.org/framework/capabilities/workload-optimization/",
        `${origin}/contact-us?${tags}`,
      ];
      await db
        .insertInto("issue_links")
        .values(links.map((url, index) => ({ issue_id: issueId, position: index + 1, url })))
        .execute();
      const days = [0, 1, 2].map((back) =>
        new Date(Date.parse(sentAt) + back * 24 * 60 * 60 * 1000).toISOString().slice(0, 10),
      );
      const clicks = [
        [41, 12, 5],
        [96, 31, 9],
        [58, 20, 4],
        [17, 6, 2],
      ];
      await db
        .insertInto("issue_link_clicks")
        .values(
          clicks.flatMap((perDay, index) =>
            perDay.map((count, day) => ({
              issue_id: issueId,
              position: index + 1,
              day: days[day] ?? "",
              clicks: count,
            })),
          ),
        )
        .execute();
      await writeSentCopies(database, issueId, { count: 1240, sentAt });
      const report = (n: number, kind: "hard" | "soft" | "complaint") => ({
        email: `reader-${kind}-${n}@example.com`,
        kind,
        status: kind === "complaint" ? null : kind === "hard" ? "5.1.1" : "4.2.2",
        source: "mailbox",
        issue_id: issueId,
        message_kind: "newsletter",
        text: "A report.",
        received_at: sentAt,
      });
      await db
        .insertInto("delivery_reports")
        .values([
          ...Array.from({ length: 9 }, (_, n) => report(n, "hard")),
          ...Array.from({ length: 4 }, (_, n) => report(n, "soft")),
          report(0, "complaint"),
        ])
        .execute();
      const leaving = await addSubscribers(database, "leaving", 6, { unsubscribed: true });
      const rows = await db
        .selectFrom("subscriptions")
        .select("id")
        .where("email", "in", leaving)
        .execute();
      await db
        .insertInto("subscription_events")
        .values(
          rows.map((row) => ({
            subscription_id: row.id,
            event: "unsubscribed" as const,
            via: "one-click",
            at: sentAt,
            issue_id: issueId,
          })),
        )
        .execute();
      await db
        .insertInto("audience_days")
        .values({
          day: days[0] ?? "",
          dimension: "insight",
          value: "cloud-bill-signs",
          views: 212,
          visits: 143,
          visitors: 131,
          conversions: 7,
          inquiries: 3,
          subscriptions: 5,
        })
        .execute();
    },
    async ({ origin, account }) => {
      await signInToConsole(page, account, `${origin}/admin/newsletter/${issueId}`);
      const brought = page.getByRole("region", { name: "What it brought" });
      // The phone's screen is tall enough to hold the panel, so the console's
      // sticky header stays at the top instead of over it.
      for (const [width, height] of [
        [1440, 900],
        [375, 3200],
      ] as const) {
        await page.setViewportSize({ width, height });
        await expect(brought.getByRole("row")).toHaveCount(5);
        await brought.screenshot({ path: `${dir}/issue-figures-${width}.png` });
      }
    },
  );
});

test("writes the screenshots of the send to a segment @screenshots", async ({ page }) => {
  test.setTimeout(90_000);
  const dir = "docs/screenshots/admin";
  mkdirSync(dir, { recursive: true });
  let issueId = 0;
  await onPreparedServer(
    "segment-send-shots",
    { role: "editor", email: "segment-editor@firm.example", name: "Priya Raman" },
    async (database) => {
      await addSubscribers(database, "reader", 40);
      const tags = ["Clients", "Partners", "Insurance", "Public sector", "Events 2026"];
      await tagReaders(
        database,
        Object.fromEntries(
          Array.from({ length: 40 }, (_, n) => [
            `reader-${n}@example.com`,
            tags.filter((_, index) => n % (index + 2) === 0),
          ]),
        ),
      );
      const topics = await database.db
        .insertInto("topics")
        .values([{ name: "Insurance" }, { name: "Energy & utilities" }])
        .returning("id")
        .execute();
      const readers = await database.db.selectFrom("subscriptions").select("id").execute();
      await database.db
        .insertInto("subscription_topics")
        .values(
          readers.flatMap(({ id }, n) =>
            topics
              .filter((_, index) => n % (index + 3) === 0)
              .map((topic) => ({
                subscription_id: id,
                topic_id: topic.id,
              })),
          ),
        )
        .execute();
      await database.db
        .updateTable("subscriptions")
        .set({ first_name: "Grace", last_name: "Hopper" })
        .where("email", "=", "reader-7@example.com")
        .execute();
      const now = new Date().toISOString();
      const row = await database.db
        .insertInto("issues")
        .values({
          title: "What changed for insurers this quarter",
          slug: "insurers-this-quarter",
          summary: "Three rulings and what they mean for your claims systems.",
          body: [
            "Dear {first_name|reader},",
            "",
            "Three rulings this quarter change how claims systems must keep their records.",
            "",
            "## What changed",
            "",
            "- Retention periods are now counted from the last contact.",
            "- Automated refusals must say which rule decided them.",
          ].join("\n"),
          author: "segment-editor@firm.example",
          created_at: now,
          updated_at: now,
        })
        .returning("id")
        .executeTakeFirstOrThrow();
      issueId = row.id;
    },
    async ({ origin, account }) => {
      await signInToConsole(page, account, `${origin}/admin/newsletter/${issueId}`);
      const choice = page.getByRole("group", { name: "Who gets it" });
      await choice.getByRole("radio", { name: "Subscribers with some tags" }).check();
      await choice.getByRole("checkbox", { name: /^Clients/ }).check();
      await choice
        .getByRole("checkbox", { name: /^Insurance/ })
        .first()
        .check();
      await choice.getByRole("checkbox", { name: /^Energy & utilities/ }).check();
      await expect(choice.locator(".recipients-reach")).toHaveText(/^Goes to \d+ active/);
      const panel = page.getByRole("region", { name: "Send" });
      // Tall enough to hold the panel: the console's sticky header stays above it.
      for (const [width, height] of [
        [1440, 3200],
        [375, 3600],
      ] as const) {
        await page.setViewportSize({ width, height });
        await expectNoSidewaysScroll(page);
        await panel.screenshot({ path: `${dir}/send-segment-${width}.png` });
      }
      // The preview, as a named reader reads it.
      await page
        .getByLabel("Read it as")
        .selectOption({ label: "Grace Hopper (reader-7@example.com)" });
      const previewPanel = page.getByRole("region", { name: "Preview" });
      for (const [width, height] of [
        [1440, 2000],
        [375, 3200],
      ] as const) {
        await page.setViewportSize({ width, height });
        await expect(
          previewFrame(page, "The e-mail at a desktop mail program's width").getByText(
            "Dear Grace,",
          ),
        ).toBeVisible();
        await previewPanel.screenshot({ path: `${dir}/preview-as-reader-${width}.png` });
      }
      await page.getByRole("button", { name: "Send now…" }).click();
      await expect(page.getByRole("alertdialog")).toContainText(
        "tagged “Clients” or “Insurance” or who chose “Energy & utilities”",
      );
      await page.setViewportSize({ width: 1440, height: 900 });
      await page.screenshot({ path: `${dir}/send-segment-confirm-1440.png` });
      await expectNoAxeViolations(page);
    },
  );
});

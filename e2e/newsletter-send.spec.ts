/**
 * A send from end to end: an editor writes an issue in the console, previews it,
 * sends a test, sends it to a few hundred subscribers through a real SMTP
 * server (smtp-server, in this test), watches the progress reach 100 %; one
 * recipient unsubscribes through the link in their copy, and the issue reads
 * at /insight/<slug>; then the editor corrects its archive page's title, which
 * the site shows, withdraws it from the archive (after a confirmation), where
 * it is then gone, and puts it back. On a server of its own, so no other
 * test's subscribers, mailbox or archive are touched.
 */
import { SUBSCRIBER_ROUTES, subscriberListSchema } from "../src/shared/admin/subscribers.ts";
import { insightIssuePath } from "../src/shared/routes.ts";
import { addSubscribers } from "../test/support/newsletter.ts";
import type { ReceivedMail, TestSmtp } from "../test/support/smtp.ts";
import { type ConsoleAccount, signInToConsole } from "./support/console.ts";
import { type OwnServer, startOwnServer } from "./support/own-server.ts";
import { preparedDatabase, writeConsoleAccount } from "./support/prepared-database.ts";
import { previewFrame, test } from "./support/previews.ts";
import { expect } from "./support/test.ts";

const SUBSCRIBERS = 300;
const EDITOR = "sender-editor@firm.example";
const TITLE = "What the cloud bill hides";
const SLUG = "what-the-cloud-bill-hides";
const CORRECTED_TITLE = "What the cloud bill hides, corrected";

const unsubscribeLinkIn = (mail: ReceivedMail) =>
  /https?:\/\/\S+\/unsubscribe\?token=[\w.-]+/.exec(mail.parsed.text ?? "")?.[0];

test.describe("sending an Insight issue", () => {
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
        "## Where the money goes\n\nMostly to *idle capacity*.\n\n> Measure first, then cut.\n\n- Turn off what nobody uses\n- Let the peaks scale",
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

    // And the issue reads on the site, where its "view in browser" link leads.
    expect(copy?.parsed.text).toContain(`${origin}${insightIssuePath(SLUG)}`);
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
});

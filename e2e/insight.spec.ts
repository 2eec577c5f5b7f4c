/**
 * The Insight archive in the browser: the list at a
 * phone's and a desktop's width, an issue's page, the unknown issue, the way
 * back, and the footer's invitation that leads there.
 *
 * This file runs its own server on a database it writes first: the served
 * archive is kept in memory until a change comes through app.content.edit,
 * which a row written into the shared test server's database does not make.
 */
import { SITE } from "../src/shared/site.ts";
import { expectNoAxeViolations } from "./support/axe.ts";
import { type OwnServer, startOwnServer } from "./support/own-server.ts";
import { expectNoSidewaysScroll, open, waitUntilSettled, whenHydrated } from "./support/page.ts";
import { preparedDatabase } from "./support/prepared-database.ts";
import { expect, loadFailure, type Page, test } from "./support/test.ts";

// One server for the file: its tests run one after another in one worker.
test.describe.configure({ mode: "serial" });

const NEWEST = {
  slug: "cash-forecasting-that-finance-trusts",
  title: "Cash forecasting that finance trusts",
  summary: "How a weekly model turned receivables from a guess into a plan.",
  startedAt: "2026-03-12T09:00:00.000Z",
  html: `<p>Most companies already have the data they need to forecast cash.</p>
<h2>What changed this quarter</h2>
<p>Read the <a href="/weserve/case-studies/finance-ar-forecast">case study</a> for the long version.</p>
<ul>
<li>Invoices are scored by the probability they are paid late.</li>
<li>Finance sees one number and a range.</li>
</ul>
<blockquote>
<p>The forecast stopped being a debate and became a meeting agenda.</p>
</blockquote>
<p><img src="/images/share.png" alt="The Meridian logo on a dark blue background"></p>
`,
};
const OLDER = {
  slug: "cloud-costs-in-2026",
  title: "Cloud costs in 2026: where the money goes",
  summary: "Most cloud bills are not too high, they are unread.",
  startedAt: "2026-02-10T09:00:00.000Z",
  html: "<p>Five lines worth reading every month.</p>\n",
};
const DRAFT_TITLE = "A draft nobody should see";

/** A new database with two issues sent and a draft, as the server will find it. */
function databaseWithIssues(): Promise<string> {
  return preparedDatabase("insight", async ({ db }) => {
    const now = new Date().toISOString();
    const common = { body: "Markdown", author: "Ava Thompson", created_at: now, updated_at: now };
    await db
      .insertInto("issues")
      .values([
        ...[OLDER, NEWEST].map(({ startedAt, html, ...issue }) => ({
          ...issue,
          ...common,
          status: "sent" as const,
          started_at: startedAt,
          web_html: html,
        })),
        { ...common, slug: "a-draft", title: DRAFT_TITLE, summary: "Not yet.", status: "draft" },
      ])
      .execute();
  });
}

let own: OwnServer;

test.beforeAll(async () => {
  own = await startOwnServer("insight", { SQLITE_FILE: await databaseWithIssues() });
});

test.afterAll(() => own.close());

const heading = (page: Page) => page.getByRole("heading", { level: 1 });

/** Marks the document, so a test can tell a page loaded anew from one the router rendered. */
const markDocument = (page: Page) =>
  page.evaluate(() => {
    (window as { documentMark?: boolean }).documentMark = true;
  });
const documentMarked = (page: Page) =>
  page.evaluate(() => (window as { documentMark?: boolean }).documentMark === true);

for (const width of [375, 1440]) {
  test(`at ${width} px: the archive lists the issues, and one opens as an article`, async ({
    page,
  }) => {
    await page.setViewportSize({ width, height: 900 });
    await open(page, `${own.origin}/insight`);
    await expect(heading(page)).toHaveText("Insight");
    const issues = page.getByRole("list", { name: "Insight" }).getByRole("listitem");
    await expect(issues).toHaveCount(2);
    await expect(issues.nth(0).getByRole("heading")).toHaveText(NEWEST.title);
    await expect(issues.nth(0).locator("time")).toHaveText("March 12, 2026");
    await expect(issues.nth(0)).toContainText(NEWEST.summary);
    await expect(issues.nth(1).getByRole("heading")).toHaveText(OLDER.title);
    await expect(page.getByText(DRAFT_TITLE)).toHaveCount(0);
    await expect(
      page.locator('link[rel="alternate"][type="application/atom+xml"]'),
    ).toHaveAttribute("href", "/insight/feed.xml");
    await expectNoSidewaysScroll(page);
    await waitUntilSettled(page);
    await expectNoAxeViolations(page);

    await issues.nth(0).getByRole("link", { name: NEWEST.title }).click();
    await expect(page).toHaveURL(`${own.origin}/insight/${NEWEST.slug}`);
    await whenHydrated(page);
    await expect(heading(page)).toHaveText(NEWEST.title);
    const article = page.getByRole("article", { name: NEWEST.title });
    await expect(article.getByText("March 12, 2026")).toBeVisible();
    await expect(article.getByRole("heading", { name: "What changed this quarter" })).toBeVisible();
    await expect(article.locator("blockquote")).toContainText("became a meeting agenda");
    await expect(article.getByRole("listitem")).toHaveCount(2);
    const picture = article.getByRole("img", {
      name: "The Meridian logo on a dark blue background",
    });
    await expect(picture).toBeVisible();
    const [pictureWidth, columnWidth] = await picture.evaluate((img) => [
      img.getBoundingClientRect().width,
      (img.closest(".insight-prose") as HTMLElement).clientWidth,
    ]);
    expect(pictureWidth).toBeLessThanOrEqual(Number(columnWidth));
    await expect(page).toHaveTitle(`${NEWEST.title} · Insight | ${SITE.firmName}`);
    await expect(page.locator('meta[property="og:type"]')).toHaveAttribute("content", "article");
    await expect(page.getByRole("complementary", { name: "Enjoyed this issue?" })).toBeVisible();
    await expectNoSidewaysScroll(page);
    await waitUntilSettled(page);
    await expectNoAxeViolations(page);

    await page.getByRole("navigation", { name: "Breadcrumb" }).getByRole("link").click();
    await expect(page).toHaveURL(`${own.origin}/insight`);
    await expect(heading(page)).toHaveText("Insight");
  });
}

test("an issue no one published shows Home with status 404, and hydrates", async ({
  page,
  expectedErrors,
}) => {
  expectedErrors.add(loadFailure(404), { url: /\/insight\/a-draft$/ });
  const response = await open(page, `${own.origin}/insight/a-draft`);
  expect(response?.status()).toBe(404);
  await expect(heading(page)).toHaveText("Business + Technology");
  await expect(page.getByText(DRAFT_TITLE)).toHaveCount(0);
  await expect(page.locator('meta[name="robots"]')).toHaveAttribute("content", "noindex");
  // Hydrated as the issue's route (no React error 418, which the fixture would fail on):
  // the header's links are the router's.
  await markDocument(page);
  await page.getByRole("banner").getByRole("link", { name: "What We Do" }).click();
  await expect(heading(page)).toHaveText("What We Do");
  expect(await documentMarked(page)).toBe(true);
});

test("Back to the archive from a page the router rendered loads the archive from the server", async ({
  page,
}) => {
  await open(page, `${own.origin}/insight`);
  await markDocument(page);
  await page.getByRole("banner").getByRole("link", { name: "What We Do" }).click();
  await expect(heading(page)).toHaveText("What We Do");
  expect(await documentMarked(page)).toBe(true);

  await page.goBack();
  await expect(page).toHaveURL(`${own.origin}/insight`);
  await expect(heading(page)).toHaveText("Insight");
  await whenHydrated(page);
  await expect(page.getByRole("link", { name: NEWEST.title })).toBeVisible();
  expect(await documentMarked(page)).toBe(false);
  // Loaded in place of its entry: Forward still leads where it did.
  await page.goForward();
  await expect(heading(page)).toHaveText("What We Do");
});

test("the footer's invitation leads to the archive, from the keyboard too", async ({ page }) => {
  await open(page, `${own.origin}/wedo`);
  const footer = page.getByRole("contentinfo");
  const invitation = footer.getByText(SITE.newsletterInvitation);
  await expect(invitation).toBeVisible();
  const link = invitation.getByRole("link", { name: "Read past issues" });
  await expect(link).toHaveAttribute("href", "/insight");

  await footer.getByRole("link", { name: `${SITE.firmName}, home` }).focus();
  await page.keyboard.press("Tab");
  await expect(link).toBeFocused();
  await page.keyboard.press("Enter");
  await expect(page).toHaveURL(`${own.origin}/insight`);
  await expect(heading(page)).toHaveText("Insight");
  await expectNoAxeViolations(page);
});

test("Home shows the latest issue sent, never a draft, and its link opens the issue", async ({
  page,
}) => {
  await open(page, `${own.origin}/`);
  const latest = page.getByRole("region", { name: /^Latest from/ });
  await expect(latest.getByText("Latest Insight issue")).toBeVisible();
  await expect(latest).toContainText(NEWEST.summary);
  await expect(latest.locator("time")).toHaveText("March 12, 2026");
  await expect(latest).not.toContainText(OLDER.title);
  await expect(latest).not.toContainText(DRAFT_TITLE);
  await latest.getByRole("link", { name: NEWEST.title }).click();
  await expect(page).toHaveURL(`${own.origin}/insight/${NEWEST.slug}`);
  await expect(heading(page)).toHaveText(NEWEST.title);
});

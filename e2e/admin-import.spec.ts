/**
 * In the browser: an owner imports a Mailchimp export with bad rows (an
 * invalid address, a duplicate, a suppressed address, one that unsubscribed
 * before), sees what each column becomes, reads the dry run's report with
 * each row's reason, gives the consent statement, imports, finds the new
 * subscribers listed as imported and by their names, and tags one. A refused statement keeps the file and every field. Each state
 * passes axe and fits 375 px. With `npm run screenshots:console` it also
 * writes the screen's screenshots.
 */
import { mkdirSync } from "node:fs";
import type { DatabaseHandle } from "../src/server/platform/db/connection.ts";
import {
  IMPORT_LIMITS,
  IMPORT_TEXTS,
  OUTCOME_LABELS,
} from "../src/shared/admin/subscriber-import.ts";
import { expectNoAxeViolations } from "./support/axe.ts";
import { signInToConsole } from "./support/console.ts";
import { expectNoSidewaysScroll } from "./support/page.ts";
import { onPreparedServer } from "./support/prepared-database.ts";
import { expect, loadFailure, type Page, test } from "./support/test.ts";

const DOMAIN = "import-e2e.example";

/** What the list held before: one who left, one whose mail bounced. */
async function seedList({ db }: DatabaseHandle) {
  const at = "2025-01-10T09:00:00.000Z";
  const left = await db
    .insertInto("subscriptions")
    .values({
      email: `left@${DOMAIN}`,
      subscribed_at: at,
      subscribed_via: "website",
      confirmed_at: at,
      unsubscribed_at: "2025-03-01T09:00:00.000Z",
      unsubscribed_via: "one-click",
      created_at: at,
      updated_at: at,
    })
    .returning("id")
    .executeTakeFirstOrThrow();
  await db
    .insertInto("subscription_events")
    .values([
      { subscription_id: left.id, event: "subscribed", via: "website", at },
      {
        subscription_id: left.id,
        event: "unsubscribed",
        via: "one-click",
        at: "2025-03-01T09:00:00.000Z",
      },
    ])
    .execute();
  await db
    .insertInto("suppressions")
    .values({ email: `bounced@${DOMAIN}`, reason: "hard-bounce", report_id: null, created_at: at })
    .execute();
}

const HEADER =
  '"Email Address","First Name","Last Name","MEMBER_RATING","OPTIN_TIME","OPTIN_IP","CONFIRM_TIME","CONFIRM_IP","LATITUDE","LONGITUDE","GMTOFF","DSTOFF","TIMEZONE","CC","REGION","LAST_CHANGED","LEID","EUID","NOTES","TAGS"';
const person = (email: string, first: string, last: string, n: number) =>
  `"${email}","${first}","${last}",2,"2024-05-0${n} 10:00:00","","2024-05-0${n} 10:05:00","","","","","","","","","2024-05-0${n} 10:05:00",${n},"e${n}","",""`;

/** A Mailchimp audience export: three good rows and four bad ones. */
const MAILCHIMP_FILE = [
  HEADER,
  person(`amara.osei@${DOMAIN}`, "Amara", "Osei", 1),
  person("amara.osei-at-nowhere", "Broken", "Address", 2),
  person(`bruno.klein@${DOMAIN}`, "Bruno", "Klein", 3),
  person(`AMARA.OSEI@${DOMAIN}`, "Amara", "Again", 4),
  person(`bounced@${DOMAIN}`, "Bo", "Unced", 5),
  person(`left@${DOMAIN}`, "Lef", "Tbefore", 6),
  person(`chen.wei@${DOMAIN}`, "Chen", "Wei", 7),
].join("\r\n");

async function chooseFile(page: Page) {
  await page.getByLabel("CSV file").setInputFiles({
    name: "mailchimp-audience.csv",
    mimeType: "text/csv",
    buffer: Buffer.from(MAILCHIMP_FILE),
  });
  await expect(page.getByText("Mailchimp audience export")).toBeVisible();
}

const OWNER = { role: "owner", email: "importer@meridian.example", name: "Lena Fischer" } as const;

test("an owner imports a Mailchimp export: the dry run names each bad row, the import lists the rest as imported", async ({
  page,
  expectedErrors,
}) => {
  test.info().setTimeout(90_000);
  // The file refused at its header: the console logs the 400 as it shows the reason.
  expectedErrors.add(loadFailure(400), { url: /\/api\/admin\/subscribers\/import\/preview$/ });
  await onPreparedServer("import-walk", OWNER, seedList, async (server) => {
    await signInToConsole(page, server.account, `${server.origin}/admin/subscribers`);
    await page.getByRole("link", { name: "Import", exact: true }).click();
    await expect(page.getByRole("heading", { level: 1, name: "Import subscribers" })).toBeVisible();
    await expect(page.getByRole("button", { name: "Import" })).toBeDisabled();

    // A file past a limit is refused next to the file, naming the limit and the line.
    await page.getByLabel("CSV file").setInputFiles({
      name: "too-wide.csv",
      mimeType: "text/csv",
      buffer: Buffer.from(`${HEADER}${",".repeat(IMPORT_LIMITS.maxColumns)}\r\n`),
    });
    await expect(page.getByLabel("CSV file")).toHaveAccessibleDescription(
      new RegExp(IMPORT_TEXTS.headerTooWide(1).replace(/[().]/g, "\\$&")),
    );
    await expect(page.getByRole("button", { name: "Check the file" })).toBeDisabled();

    await chooseFile(page);
    await expect(page.getByText("7 rows below the header.")).toBeVisible();
    // Every column says what it becomes, and why one is left out.
    const roles = page.getByRole("region", { name: "What each column becomes" });
    const role = (column: string) => roles.getByRole("row").filter({ hasText: column });
    await expect(role("First Name")).toContainText("First name");
    await expect(role("MEMBER_RATING")).toContainText("Kept as a field");
    await expect(role("TAGS")).toContainText("Tags");
    const leftOut = roles.getByRole("listitem").filter({ hasText: "OPTIN_IP" });
    await expect(leftOut).toContainText("Not imported:");
    await expect(leftOut).toContainText("LATITUDE");
    await expect(leftOut).toContainText("this site keeps no such trace");
    await expect(page.getByRole("cell", { name: `bruno.klein@${DOMAIN}` })).toBeVisible();
    await expectNoAxeViolations(page);

    await page.getByRole("button", { name: "Check the file" }).click();
    const report = page.getByRole("region", { name: "What the import would do" });
    await expect(report).toBeVisible();
    const rows = report.getByRole("table", { name: "Rows not added, in file order" });
    const expected = [
      ["3", "amara.osei-at-nowhere", OUTCOME_LABELS.invalid],
      ["5", `amara.osei@${DOMAIN}`, `${OUTCOME_LABELS.duplicate} (row 2)`],
      ["6", `bounced@${DOMAIN}`, OUTCOME_LABELS.suppressed],
      ["7", `left@${DOMAIN}`, OUTCOME_LABELS.unsubscribed],
    ];
    await expect(rows.getByRole("row")).toHaveCount(expected.length + 1);
    for (const [index, cells] of expected.entries()) {
      await expect(rows.getByRole("row").nth(index + 1)).toHaveText(
        new RegExp(cells.join(".*").replace(/[()]/g, "\\$&")),
      );
    }
    await expect(report.getByRole("link", { name: "Download the report (CSV)" })).toBeVisible();
    await expectNoAxeViolations(page);

    // Importing without a statement: the reasons by their fields, the file and the check kept.
    await page.getByRole("button", { name: "Import 3 addresses" }).click();
    await expect(page.getByText(IMPORT_TEXTS.sourceRequired)).toBeVisible();
    await expect(page.getByText(IMPORT_TEXTS.dateRequired)).toBeVisible();
    await expect(page.getByText("Mailchimp audience export")).toBeVisible();
    await expect(report).toBeVisible();

    await page.getByLabel("Where the consent came from").fill("Sign-up form of our Mailchimp list");
    await page.getByLabel("Date of the consent").fill("2024-05-31");
    await page.getByRole("button", { name: "Import 3 addresses" }).click();
    const done = page.getByRole("region", { name: "Import done" });
    await expect(done).toContainText(IMPORT_TEXTS.imported(3));
    await expect(done).toContainText("They are active and were sent nothing.");
    await expectNoAxeViolations(page);

    await done.getByRole("link", { name: "See the subscribers" }).click();
    await page.getByRole("searchbox", { name: "Address" }).fill(DOMAIN);
    await page.getByRole("button", { name: "Search" }).click();
    await expect(
      page.getByRole("status").filter({ hasText: "4 subscribers match." }),
    ).toBeVisible();
    // Each is dated by its own CONFIRM_TIME, and the import's day is shown apart.
    const confirmed = { amara: 1, bruno: 3, chen: 7 };
    for (const [name, day] of Object.entries(confirmed)) {
      const row = page.getByRole("row").filter({ hasText: `${name}.` });
      await expect(row).toContainText("Imported from another list");
      await expect(row).toContainText("Active");
      const [subscribed, imported] = [row.locator("time").nth(0), row.locator("time").nth(1)];
      await expect(subscribed).toHaveAttribute("datetime", `2024-05-0${day}T10:05:00.000Z`);
      await expect(imported).toHaveAttribute(
        "datetime",
        new RegExp(`^${new Date().getUTCFullYear()}-`),
      );
    }
    // Found by the name the file gave.
    await page.getByRole("searchbox", { name: "Address or name" }).fill("klein");
    await page.getByRole("button", { name: "Search" }).click();
    await expect(
      page.getByRole("status").filter({ hasText: "1 subscriber matches." }),
    ).toBeVisible();
    await page.getByRole("link", { name: `bruno.klein@${DOMAIN}` }).click();
    const history = page.getByRole("region", { name: "Consent history" });
    await expect(history).toContainText("Consent: Sign-up form of our Mailchimp list");
    await expect(history).toContainText("Imported from “mailchimp-audience.csv”");
    const person = page.getByRole("region", { name: "The person", exact: true });
    await expect(person).toContainText("Bruno Klein");
    await expect(person).toContainText("MEMBER_RATING");
    // The owner tags him, one tag a line; the tags show as they were typed,
    // each once, a comma kept. He adds a field and erases MEMBER_RATING.
    await person.getByText("Edit the name, tags and fields").click();
    await person.getByLabel("Tags").fill("client\nenergy, utilities\nClient");
    const fields = person.getByRole("group", { name: "Fields" });
    await fields.getByRole("button", { name: "Add a field" }).click();
    await fields.getByLabel("Name").last().fill("Sector");
    await fields.getByLabel("Text").last().fill("Energy");
    await fields.getByRole("button", { name: "Erase the field MEMBER_RATING" }).click();
    await person.getByRole("button", { name: "Save the person" }).click();
    await expect(person.getByText("Saved.")).toBeVisible();
    await expect(person.getByRole("listitem")).toHaveText(["client", "energy, utilities"]);
    await expect(person.locator(".person-facts")).toContainText("SectorEnergy");
    await expect(person.locator(".person-facts")).not.toContainText("MEMBER_RATING");
    await expectNoAxeViolations(page);
  });
});

test.describe("at 375 px", () => {
  test.use({ viewport: { width: 375, height: 800 } });

  test("the import screen, its preview and its report fit and pass axe", async ({ page }) => {
    test.info().setTimeout(90_000);
    await onPreparedServer("import-phone", OWNER, seedList, async (server) => {
      await signInToConsole(page, server.account, `${server.origin}/admin/subscribers/import`);
      await chooseFile(page);
      await expectNoSidewaysScroll(page);
      await page.getByRole("button", { name: "Check the file" }).click();
      await expect(page.getByRole("region", { name: "What the import would do" })).toBeVisible();
      await expectNoSidewaysScroll(page);
      await expectNoAxeViolations(page);
    });
  });
});

/** The whole page from its top, so the console's sticky bar is where a reader sees it. */
async function shoot(page: Page, path: string) {
  await page.evaluate(() => window.scrollTo(0, 0));
  await page.screenshot({ path, fullPage: true });
}

test("writes the import screen's screenshots @screenshots", async ({ page }) => {
  const dir = "docs/screenshots/admin";
  mkdirSync(dir, { recursive: true });
  test.info().setTimeout(120_000);
  await onPreparedServer("import-shots", OWNER, seedList, async (server) => {
    await signInToConsole(page, server.account, `${server.origin}/admin/subscribers/import`);
    for (const width of [375, 1440]) {
      await page.setViewportSize({ width, height: 900 });
      await page.goto(`${server.origin}/admin/subscribers/import`);
      await chooseFile(page);
      await page
        .getByLabel("Where the consent came from")
        .fill("Sign-up form of our Mailchimp list");
      await page.getByLabel("Date of the consent").fill("2024-05-31");
      await page.getByRole("button", { name: "Check the file" }).click();
      await expect(page.getByRole("region", { name: "What the import would do" })).toBeVisible();
      await shoot(page, `${dir}/subscribers-import-${width}.png`);
    }
    await page.getByRole("button", { name: "Import 3 addresses" }).click();
    await expect(page.getByRole("region", { name: "Import done" })).toBeVisible();
    await shoot(page, `${dir}/subscribers-import-done-1440.png`);
    await page.setViewportSize({ width: 375, height: 900 });
    await shoot(page, `${dir}/subscribers-import-done-375.png`);
    // The list after it: each imported address dated by its former list, and imported apart.
    for (const width of [375, 1440]) {
      await page.setViewportSize({ width, height: 900 });
      await page.goto(`${server.origin}/admin/subscribers`);
      await expect(page.getByRole("row").filter({ hasText: `chen.wei@${DOMAIN}` })).toBeVisible();
      await shoot(page, `${dir}/subscribers-after-import-${width}.png`);
    }
    // A subscriber the import brought: the person, with a name and the fields of their former list.
    await page.getByRole("link", { name: `chen.wei@${DOMAIN}` }).click();
    for (const width of [1440, 375]) {
      await page.setViewportSize({ width, height: 900 });
      await expect(page.getByRole("region", { name: "The person", exact: true })).toContainText(
        "Chen Wei",
      );
      await shoot(page, `${dir}/subscriber-person-${width}.png`);
    }
    // The person's edit open: the tags one a line, the fields to correct or erase.
    const person = page.getByRole("region", { name: "The person", exact: true });
    await person.getByText("Edit the name, tags and fields").click();
    for (const width of [1440, 375]) {
      await page.setViewportSize({ width, height: 2400 });
      await expectNoSidewaysScroll(page);
      await person.screenshot({ path: `${dir}/subscriber-person-edit-${width}.png` });
    }
  });
});

/**
 * In the browser: an owner invites an editor, who opens the
 * e-mailed link in their own browser, sets a password, signs in and finds no
 * People area; the owner makes them a viewer and reads both changes in the
 * audit log; a removal asks first in a dialog. Every state passes axe, at
 * 1280 and 375 px. With `npm run screenshots:console` it also writes the screenshots.
 */
import { mkdirSync } from "node:fs";
import { ensureUser } from "../src/server/platform/console/users.ts";
import type { DatabaseHandle } from "../src/server/platform/db/connection.ts";
import { expectNoAxeViolations } from "./support/axe.ts";
import { CONSOLE_PASSWORD, consoleAccount, signInToConsole } from "./support/console.ts";
import { findInMail } from "./support/mailbox.ts";
import { onPreparedServer } from "./support/prepared-database.ts";
import { expect, type Page, test } from "./support/test.ts";

/** An address of this run's own, so parallel tests and reruns never meet. */
const uniqueAddress = (label: string) =>
  `${label}-${Date.now().toString(36)}${Math.random().toString(36).slice(2, 6)}@people-e2e.example`;

const INVITE_LINK = /https?:\/\/[^\s]+\/admin\/set-password#token=[A-Za-z0-9_-]{43}/;

function personRow(page: Page, email: string) {
  return page.getByRole("row").filter({ hasText: email });
}

async function invite(page: Page, name: string, email: string, role: string) {
  const form = page.getByRole("region", { name: "Invite someone" });
  await form.getByLabel("Name").fill(name);
  await form.getByLabel("E-mail address").fill(email);
  await form.getByLabel("Role").selectOption(role);
  await form.getByRole("button", { name: "Send invitation" }).click();
  await expect(page.getByText(`Invitation sent to ${email}.`)).toBeVisible();
}

test("an owner invites an editor by e-mail, makes them a viewer, and reads it in the audit log", async ({
  page,
  browser,
  baseURL,
}) => {
  const owner = await consoleAccount("owner", "people-invite");
  const email = uniqueAddress("ivy");
  await signInToConsole(page, owner, "/admin/people");
  await expect(page.getByRole("heading", { name: "People", level: 1 })).toBeVisible();
  await expectNoAxeViolations(page);

  await invite(page, "Ivy Invited", email, "editor");
  await expect(personRow(page, email)).toContainText("Invited, not accepted");
  await expectNoAxeViolations(page);

  let link: string | undefined;
  await expect
    .poll(async () => (link = await findInMail(email, INVITE_LINK)), { timeout: 15_000 })
    .toBeDefined();
  // The mail's link names the configured public origin; the same path on this server.
  const { pathname, hash } = new URL(link as string);

  const inviteeContext = await browser.newContext({ baseURL });
  try {
    const invitee = await inviteeContext.newPage();
    await invitee.goto(`${pathname}${hash}`);
    await invitee.getByLabel("New password").fill(CONSOLE_PASSWORD);
    await invitee.getByLabel("The same password again").fill(CONSOLE_PASSWORD);
    await invitee.getByRole("button", { name: "Set password" }).click();
    await expect(invitee.getByText("Your password is set.")).toBeVisible();
    await invitee.getByRole("link", { name: "Sign in" }).click();
    await signInToConsole(invitee, { email, password: CONSOLE_PASSWORD, role: "editor" });
    const nav = invitee.getByRole("navigation", { name: "Console" });
    await expect(nav.getByRole("link", { name: "Content" })).toBeVisible();
    await expect(nav.getByRole("link", { name: "People" })).toHaveCount(0);
    await expect(nav.getByRole("link", { name: "Audit log" })).toHaveCount(0);
  } finally {
    await inviteeContext.close();
  }

  await page.reload();
  const row = personRow(page, email);
  await expect(row).toContainText("Active");
  await row.getByLabel("Role of Ivy Invited").selectOption("viewer");
  await row.getByRole("button", { name: "Save role of Ivy Invited" }).click();
  await expect(page.getByText("Ivy Invited is now a viewer.")).toBeVisible();
  await expect(row.getByLabel("Role of Ivy Invited")).toHaveValue("viewer");

  await page
    .getByRole("navigation", { name: "Console" })
    .getByRole("link", { name: "Audit log" })
    .click();
  await expect(page.getByRole("heading", { name: "Audit log", level: 1 })).toBeVisible();
  await expect(page.getByText(/Entries are kept for \d+ days/)).toBeVisible();
  await page.getByRole("searchbox", { name: "Search" }).fill(email);
  await page.getByRole("button", { name: "Search" }).click();
  await expect(page).toHaveURL(/[?&]q=/);
  // Every test's account comes by invitation: the rows about this address are read.
  const entries = page
    .getByRole("table", { name: /Audit log entries/ })
    .getByRole("row")
    .filter({ hasText: email });
  await expect(entries.filter({ hasText: "Role changed" })).toContainText("editor → viewer");
  await expect(entries.filter({ hasText: "Person invited" })).toContainText(owner.email);
  await expect(entries.filter({ hasText: "Invitation accepted" })).toHaveCount(1);
  await expectNoAxeViolations(page);

  await page.getByLabel("Action").selectOption("role-changed");
  await page.getByRole("button", { name: "Search" }).click();
  await expect(page.getByRole("status").filter({ hasText: "1 entry" })).toBeVisible();
});

test("a removal asks first, in a dialog", async ({ page }) => {
  const owner = await consoleAccount("owner", "people-remove");
  const leaver = await consoleAccount("viewer", "people-remove");
  await signInToConsole(page, owner, "/admin/people");

  const row = personRow(page, leaver.email);
  await row.getByRole("button", { name: /^Remove/ }).click();
  const dialog = page.getByRole("alertdialog", { name: "Remove people-remove viewer?" });
  await expect(dialog).toBeVisible();
  await expectNoAxeViolations(page);
  await dialog.getByRole("button", { name: "Cancel" }).click();
  await expect(dialog).toBeHidden();
  await expect(row).toBeVisible();

  await row.getByRole("button", { name: /^Remove/ }).click();
  await dialog.getByRole("button", { name: "Remove people-remove viewer" }).click();
  await expect(page.getByText("people-remove viewer no longer has an account.")).toBeVisible();
  await expect(row).toHaveCount(0);
});

test.describe("at 375 px", () => {
  test.use({ viewport: { width: 375, height: 800 } });

  test("the people list and the audit log fit and pass axe", async ({ page }) => {
    const owner = await consoleAccount("owner", "people-narrow");
    await signInToConsole(page, owner, "/admin/people");
    await expect(personRow(page, owner.email)).toBeVisible();
    await expectNoAxeViolations(page);
    const fits = () =>
      page.evaluate(() => document.documentElement.scrollWidth <= window.innerWidth);
    expect(await fits()).toBe(true);
    await page.goto("/admin/audit");
    await expect(page.getByRole("status").filter({ hasText: /entr/ })).toBeVisible();
    await expectNoAxeViolations(page);
    expect(await fits()).toBe(true);
  });
});

const SCREENSHOT_PEOPLE = [
  { name: "Margaret Okafor", role: "owner", email: "margaret@meridian.example", signedIn: 2 },
  { name: "Daniel Reyes", role: "editor", email: "daniel@meridian.example", signedIn: 26 },
  { name: "Priya Natarajan", role: "editor", email: "priya@meridian.example", signedIn: 75 },
  { name: "Tom Becker", role: "viewer", email: "tom@meridian.example", signedIn: null },
] as const;

/** What the firm did over the last days: [hours ago, actor, action, target, detail]. */
const SCREENSHOT_DOINGS: [number, string, string, string | null, Record<string, unknown> | null][] =
  [
    [1, "margaret@meridian.example", "person-invited", "tom@meridian.example", { role: "viewer" }],
    [2, "margaret@meridian.example", "sign-in", null, null],
    [5, "unknown@example.com", "sign-in-failed", "unknown@example.com", { reason: "password" }],
    [20, "priya@meridian.example", "subscribers-exported", "subscribers.csv", { rows: 212 }],
    [25, "daniel@meridian.example", "content-changed", "team/priya-natarajan", { version: 4 }],
    [26, "daniel@meridian.example", "sign-in", null, null],
    [
      50,
      "margaret@meridian.example",
      "role-changed",
      "priya@meridian.example",
      { from: "viewer", to: "editor" },
    ],
    [75, "priya@meridian.example", "sign-in", null, null],
  ];

/** A few colleagues and a few days of their doings, so the pictures show a firm at work. */
async function seedForScreenshots({ db }: DatabaseHandle) {
  const hoursAgo = (hours: number) => new Date(Date.now() - hours * 3_600_000).toISOString();
  const ids = new Map<string, number>();
  for (const person of SCREENSHOT_PEOPLE) {
    const { user } = await ensureUser(db, person);
    ids.set(person.email, user.id);
    await db
      .updateTable("users")
      .set({
        // Accepted invitations have a password (never used here); Tom has not accepted his.
        password_hash: person.signedIn === null ? null : "not a usable hash",
        totp_enabled_at: person.role === "owner" ? hoursAgo(400) : null,
      })
      .where("id", "=", user.id)
      .execute();
  }
  await db
    .insertInto("audit_log")
    .values(
      SCREENSHOT_DOINGS.map(([hours, actor, action, target, detail]) => ({
        at: hoursAgo(hours),
        user_id: ids.get(actor) ?? null,
        actor,
        action,
        target,
        ip: actor.endsWith("@example.com") ? "198.51.100.77" : "203.0.113.24",
        detail: detail && JSON.stringify(detail),
      })),
    )
    .execute();
}

test("writes the area's screenshots @screenshots", async ({ page }) => {
  const dir = "docs/screenshots/admin";
  mkdirSync(dir, { recursive: true });
  test.info().setTimeout(90_000);
  // A server of its own, on a database holding the firm before it starts.
  const owner = { role: "owner", email: "lena@meridian.example", name: "Lena Fischer" } as const;
  await onPreparedServer("people-shots", owner, seedForScreenshots, async (server) => {
    await signInToConsole(page, server.account, `${server.origin}/admin/people`);
    await shootPeople(page, server.origin, dir);
  });
});

async function shootPeople(page: Page, origin: string, dir: string) {
  for (const width of [375, 1440]) {
    await page.setViewportSize({ width, height: 900 });
    await page.goto(`${origin}/admin/people`);
    await expect(personRow(page, "tom@meridian.example")).toBeVisible();
    await page.screenshot({ path: `${dir}/people-list-${width}.png`, fullPage: true });
    await personRow(page, "tom@meridian.example")
      .getByRole("button", { name: /^Remove/ })
      .click();
    await expect(page.getByRole("alertdialog")).toBeVisible();
    await page.screenshot({ path: `${dir}/people-remove-dialog-${width}.png` });
    await page.keyboard.press("Escape");
    await page.goto(`${origin}/admin/audit`);
    await expect(page.getByRole("status").filter({ hasText: /entr/ })).toBeVisible();
    await page.screenshot({ path: `${dir}/audit-log-${width}.png`, fullPage: true });
  }
}

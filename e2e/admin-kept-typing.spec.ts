/**
 * Nothing typed in the console is lost. A new issue is being written when
 * the session ends (signed out everywhere from another device): "Create
 * draft" leads to the sign-in screen, and after signing in the form is back
 * with every word. A draft saves itself as the editor types, and says so.
 * Leaving a form with changes the server does not have asks first.
 */
import { randomBytes } from "node:crypto";
import type { Browser } from "@playwright/test";
import { NETWORK_FAILURE } from "../src/admin/api/client.ts";
import { NEWSLETTER_PATHS } from "../src/shared/admin/newsletter.ts";
import { expectNoAxeViolations } from "./support/axe.ts";
import { type ConsoleAccount, consoleAccount, signInThroughForm } from "./support/console.ts";
import { sendInquiry } from "./support/inquiry.ts";
import { test } from "./support/previews.ts";
import { expect, loadFailure, type Page } from "./support/test.ts";

/** Each run's issues have titles, and so addresses, of their own: the server is shared. */
const unique = (title: string) => `${title} ${randomBytes(3).toString("hex")}`;
const TITLE = "Kept while the session ended";
const SUMMARY = "What an editor typed survives the end of a session.";
const BODY = "The first paragraph, typed before the session ended.\n\nAnd a second one.";

/** Another browser, signed in as the same person, ends every session (as from a phone). */
async function signOutEverywhereElse(browser: Browser, account: ConsoleAccount) {
  const elsewhere = await browser.newContext();
  const page = await elsewhere.newPage();
  await signInThroughForm(page, account, "/admin/account");
  await page.getByRole("button", { name: "Sign out everywhere" }).click();
  await expect(page.getByRole("button", { name: "Sign in" })).toBeVisible();
  await elsewhere.close();
}

async function signInAgain(page: Page, account: ConsoleAccount) {
  await expect(page.getByText("Your session has ended. Please sign in again.")).toBeVisible();
  await page.getByLabel("E-mail address").fill(account.email);
  await page.getByLabel("Password").fill(account.password);
  await page.getByRole("button", { name: "Sign in" }).click();
  await expect(page.getByRole("navigation", { name: "Console" })).toBeVisible();
}

const autosave = (page: Page) => page.getByTestId("autosave-status");

test("a new issue's text survives the session ending mid-typing", async ({
  page,
  browser,
  expectedErrors,
}) => {
  // "Create draft" after the session ended is refused, as it should be.
  expectedErrors.add(loadFailure(401), { url: new RegExp(NEWSLETTER_PATHS.list) });
  const editor = await consoleAccount("editor", "kept-typing");
  const title = unique(TITLE);
  await signInThroughForm(page, editor, "/admin/newsletter/new");
  await page.getByLabel("Title").fill(title);
  await page.getByLabel("Summary").fill(SUMMARY);
  await page.getByLabel("Body").fill(BODY);

  await signOutEverywhereElse(browser, editor);
  await page.getByRole("button", { name: "Create draft" }).click();
  await signInAgain(page, editor);

  // Back on the same form, with every field as it was typed.
  await expect(page).toHaveURL(/\/admin\/newsletter\/new$/);
  await expect(page.getByLabel("Title")).toHaveValue(title);
  await expect(page.getByLabel("Summary")).toHaveValue(SUMMARY);
  await expect(page.getByLabel("Body")).toHaveValue(BODY);
  await expect(
    page.getByText(/^Put back what you typed on .+, which had not been saved\.$/),
  ).toBeVisible();
  await expectNoAxeViolations(page);

  await page.getByRole("button", { name: "Create draft" }).click();
  await expect(page.getByText(/^Created as a draft\./)).toBeVisible();
  await expect(page.getByRole("heading", { level: 1, name: title })).toBeVisible();
  // Created: nothing is left to put back.
  await page.goto("/admin/newsletter/new");
  await expect(page.getByLabel("Title")).toHaveValue("");
  await expect(page.getByText(/^Put back what you typed/)).toHaveCount(0);
});

test("a draft saves itself as it is typed, and what the server missed comes back", async ({
  page,
  browser,
  expectedErrors,
}) => {
  expectedErrors.add(loadFailure(401), { url: /\/api\/admin\/newsletter\/\d+$/ });
  // The one save tried while the browser is offline.
  expectedErrors.add(/^Failed to load resource: net::ERR_INTERNET_DISCONNECTED$/);
  const editor = await consoleAccount("editor", "autosave");
  await signInThroughForm(page, editor, "/admin/newsletter/new");
  await page.getByLabel("Title").fill(unique("Saved as typed"));
  await page.getByLabel("Summary").fill(SUMMARY);
  await page.getByLabel("Body").fill(BODY);
  await page.getByRole("button", { name: "Create draft" }).click();
  await expect(page.getByText(/^Created as a draft\./)).toBeVisible();
  const issueUrl = page.url();

  // Typed, then saved by itself once the typing pauses: a reload shows it.
  await page.getByLabel("Body").fill(`${BODY}\n\nA third paragraph, never saved by hand.`);
  await expect(autosave(page)).toHaveText(/^Saved at \d{2}:\d{2}$/);
  await page.reload();
  await expect(page.getByLabel("Body")).toHaveValue(/A third paragraph, never saved by hand\.$/);

  // A form the server would refuse is not sent, and says why.
  await page.getByLabel("Summary").fill("");
  await expect(autosave(page)).toContainText("Not saved yet:");
  await expect(autosave(page)).toContainText("What you typed is kept in this browser.");
  await page.getByLabel("Summary").fill(`${SUMMARY} Read on.`);
  await expect(autosave(page)).toHaveText(/^Saved at/);

  // The server out of reach: the save says so and the text stays; back online, the next pause saves it.
  await page.context().setOffline(true);
  await page.getByLabel("Body").fill(`${BODY}\n\nTyped on a train.`);
  await expect(autosave(page)).toContainText(`Not saved yet: ${NETWORK_FAILURE}`);
  await page.context().setOffline(false);
  await page.getByLabel("Body").fill(`${BODY}\n\nTyped on a train, sent at the station.`);
  await expect(autosave(page)).toHaveText(/^Saved at/);

  // The session ends; the next save is refused; after signing in, the text is back and saved.
  await signOutEverywhereElse(browser, editor);
  await page.getByLabel("Body").fill(`${BODY}\n\nWritten after the session ended elsewhere.`);
  await signInAgain(page, editor);
  await expect(page).toHaveURL(issueUrl);
  await expect(page.getByLabel("Body")).toHaveValue(/Written after the session ended elsewhere\.$/);
  await expect(page.getByText(/^Put back what you typed/)).toBeVisible();
  await expect(autosave(page)).toHaveText(/^Saved at/);
  await page.reload();
  await expect(page.getByLabel("Body")).toHaveValue(/Written after the session ended elsewhere\.$/);
});

test("leaving a form with unsaved changes asks first", async ({ page }) => {
  await signInThroughForm(
    page,
    await consoleAccount("editor", "leave-warning"),
    "/admin/newsletter/new",
  );
  await page.getByLabel("Title").fill("Not yet a draft");

  await page
    .getByRole("navigation", { name: "Console" })
    .getByRole("link", { name: "Inquiries" })
    .click();
  const question = page.getByRole("alertdialog", { name: "Leave without saving?" });
  await expect(question).toBeVisible();
  await expectNoAxeViolations(page);
  await question.getByRole("button", { name: "Keep editing" }).click();
  await expect(question).toBeHidden();
  await expect(page).toHaveURL(/\/admin\/newsletter\/new$/);
  await expect(page.getByLabel("Title")).toHaveValue("Not yet a draft");

  await page
    .getByRole("navigation", { name: "Console" })
    .getByRole("link", { name: "Inquiries" })
    .click();
  await question.getByRole("button", { name: "Discard changes and leave" }).click();
  await expect(page).toHaveURL(/\/admin\/inquiries/);
  // Discarded: the form opens empty, with nothing put back.
  await page.goto("/admin/newsletter/new");
  await expect(page.getByLabel("Title")).toHaveValue("");
  await expect(page.getByText(/^Put back what you typed/)).toHaveCount(0);
});

test("a note half-written on an inquiry comes back after the tab is reloaded", async ({
  page,
  request,
}) => {
  const id = await sendInquiry(request, `kept${Date.now()}`);
  await signInThroughForm(
    page,
    await consoleAccount("editor", "kept-note"),
    `/admin/inquiries/${id}`,
  );
  const note = page.getByLabel("Add a note");
  await note.fill("Called back: they want a quote by Friday.");

  // The browser asks before leaving a page with unsaved typing; the person leaves anyway.
  const asked = new Promise<string>((resolve) =>
    page.once("dialog", (dialog) => {
      resolve(dialog.type());
      void dialog.accept();
    }),
  );
  await page.reload();
  expect(await asked).toBe("beforeunload");
  await expect(note).toHaveValue("Called back: they want a quote by Friday.");
  await expect(page.getByText(/^Put back what you typed/)).toBeVisible();

  await page.getByRole("button", { name: "Add note" }).click();
  await expect(page.getByText("Note added.")).toBeVisible();
  await expect(note).toHaveValue("");
  await page.reload();
  await expect(page.getByText(/^Put back what you typed/)).toHaveCount(0);
});

test("writes the screenshots of a put-back copy and of the question before leaving @screenshots", async ({
  page,
}) => {
  const editor = await consoleAccount("editor", "kept-shots");
  await signInThroughForm(page, editor, "/admin/newsletter/new");
  for (const width of [375, 1440]) {
    await page.setViewportSize({ width, height: 900 });
    await page.goto("/admin/newsletter/new");
    await page.getByLabel("Title").fill(TITLE);
    await page.getByLabel("Summary").fill(SUMMARY);
    await page.getByLabel("Body").fill(BODY);
    // Closed without saving: the next visit puts it back.
    const leaving = new Promise<void>((resolve) =>
      page.once("dialog", (dialog) => {
        void dialog.accept();
        resolve();
      }),
    );
    await page.reload();
    await leaving;
    await expect(page.getByText(/^Put back what you typed/)).toBeVisible();
    await page.screenshot({ path: `docs/screenshots/admin/kept-typing-restored-${width}.png` });

    await page
      .getByRole("navigation", { name: "Console" })
      .getByRole("link", { name: "Inquiries" })
      .click();
    await expect(page.getByRole("alertdialog", { name: "Leave without saving?" })).toBeVisible();
    await page.screenshot({ path: `docs/screenshots/admin/kept-typing-leave-${width}.png` });
    await page.getByRole("button", { name: "Discard changes and leave" }).click();
    await expect(page).toHaveURL(/\/admin\/inquiries/);
  }
});

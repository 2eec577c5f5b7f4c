/**
 * The inquiries inbox in the browser. An inquiry arrives
 * through the public API; an editor finds it, answers it, assigns it, notes
 * it, replies and exports it; a viewer reads it without the controls; both
 * screens work at 375 px. Each test marks its inquiry with a word of its own:
 * other tests share the server and its database.
 */
import { randomBytes } from "node:crypto";
import { readFile } from "node:fs/promises";
import { INBOX_REFRESH_MS } from "../src/admin/screens/inquiries/InboxScreen.tsx";
import { INQUIRY_PATHS } from "../src/shared/admin/inquiries.ts";
import type { Inquiry } from "../src/shared/schemas.ts";
import { expectNoAxeViolations } from "./support/axe.ts";
import { consoleAccount, signInToConsole } from "./support/console.ts";
import { sendInquiry } from "./support/inquiry.ts";
import { expectNoSidewaysScroll, expectWithinWindowWidth } from "./support/page.ts";
import { expect, loadFailure, type Page, test } from "./support/test.ts";

const uniqueWord = (label: string) => `${label}${randomBytes(4).toString("hex")}`;

async function searchFor(page: Page, word: string) {
  await page.getByRole("searchbox", { name: "Search" }).fill(word);
  await page.getByRole("button", { name: "Search", exact: true }).click();
  await expect(page).toHaveURL(new RegExp(`[?&]q=${word}`));
  await expect(
    page.getByRole("status").filter({ hasText: /^Showing 1–1 of 1 inquiry$/ }),
  ).toBeVisible();
}

const inquiryLink = (page: Page) => page.getByRole("link", { name: "Ada Lovelace" });

test("the open inbox shows a new inquiry without a reload, and again when the person comes back to it", async ({
  page,
  request,
}) => {
  const viewer = await consoleAccount("viewer", "inbox-current");
  // The page's timers run on a clock the test moves, instead of waiting half a minute.
  await page.clock.install();
  await signInToConsole(page, viewer, "/admin/inquiries");
  const word = uniqueWord("current");
  await page.getByRole("searchbox", { name: "Search" }).fill(word);
  await page.getByRole("button", { name: "Search", exact: true }).click();
  await expect(page.getByText("No inquiries match this filter.")).toBeVisible();

  await sendInquiry(request, word);
  await page.clock.fastForward(INBOX_REFRESH_MS);
  await expect(inquiryLink(page)).toBeVisible();

  // Back to the tab after a while elsewhere: read again at once.
  await sendInquiry(request, word, { firstName: "Grace", lastName: "Hopper" });
  await page.evaluate(() => document.dispatchEvent(new Event("visibilitychange")));
  await expect(page.getByRole("link", { name: "Grace Hopper" })).toBeVisible();
  await expect(inquiryLink(page)).toBeVisible();
});

test("an editor finds an inquiry, answers, assigns and notes it, replies and exports it", async ({
  page,
  request,
  expectedErrors,
}) => {
  const word = uniqueWord("handle");
  await sendInquiry(request, word);
  const editor = await consoleAccount("editor", word);
  await signInToConsole(page, editor, "/admin/inquiries");

  await expect(page.getByRole("heading", { name: "Inquiries", level: 1 })).toBeVisible();
  await searchFor(page, word);
  const row = page.getByRole("row").filter({ has: inquiryLink(page) });
  await expect(row).toContainText("Predictive Analytics");
  await expect(row).toContainText("New");
  await expect(row).toContainText("Unassigned");
  await expectNoAxeViolations(page);

  // The filter lives in the address: a reload shows the same list.
  await page.reload();
  await expect(page.getByRole("searchbox", { name: "Search" })).toHaveValue(word);
  await expect(inquiryLink(page)).toBeVisible();

  await inquiryLink(page).click();
  await expect(page.getByRole("heading", { name: "Ada Lovelace", level: 1 })).toBeVisible();
  await expect(page.getByText(`We would like to forecast demand. (${word})`)).toBeVisible();
  await expectNoAxeViolations(page);

  const reply = page.getByRole("link", { name: "Reply by e-mail" });
  const mailto = new URL((await reply.getAttribute("href")) ?? "");
  expect(mailto.protocol).toBe("mailto:");
  expect(decodeURIComponent(mailto.pathname)).toBe(`ada.${word}@example.com`);
  expect(mailto.searchParams.get("subject")).toBe("Re: Your inquiry about Predictive Analytics");

  await page.getByLabel("Status").selectOption("answered");
  await page.getByRole("button", { name: "Save status" }).click();
  await expect(
    page.getByRole("status").filter({ hasText: "Status set to Answered." }),
  ).toBeVisible();

  await page.getByLabel("Assigned to").selectOption({ label: `${word} editor` });
  await page.getByRole("button", { name: "Save assignee" }).click();
  await expect(
    page.getByRole("status").filter({ hasText: `Assigned to ${word} editor.` }),
  ).toBeVisible();

  const note = page.getByRole("textbox", { name: "Add a note" });
  await page.getByRole("button", { name: "Add note" }).click();
  await expect(page.getByText("Write the note first.")).toBeVisible();

  // A refused note keeps its text for another try.
  expectedErrors.add(loadFailure(500));
  await page.route(`**${INQUIRY_PATHS.list}/*/notes`, (route) =>
    route.fulfill({ status: 500, json: { message: "Something went wrong on our side." } }),
  );
  await note.fill("Called back; proposal follows.");
  await page.getByRole("button", { name: "Add note" }).click();
  await expect(page.getByRole("alert")).toHaveText("Something went wrong on our side.");
  await expect(note).toHaveValue("Called back; proposal follows.");
  await page.unrouteAll();
  await page.getByRole("button", { name: "Add note" }).click();
  await expect(page.getByRole("status").filter({ hasText: "Note added." })).toBeVisible();
  await expect(note).toHaveValue("");
  const notes = page.getByRole("list").filter({ hasText: "Called back; proposal follows." });
  await expect(notes).toContainText(`${word} editor`);
  await expectNoAxeViolations(page);

  // Back to the same filtered list, which shows the new state.
  await page.getByRole("link", { name: "All inquiries" }).click();
  await expect(page.getByRole("searchbox", { name: "Search" })).toHaveValue(word);
  await expect(row).toContainText("Answered");
  await expect(row).toContainText(`${word} editor`);
  await page.getByLabel("Status").selectOption("answered");
  await expect(page).toHaveURL(/[?&]status=answered/);
  await expect(page.getByLabel("Status")).toContainText("Answered (1)");
  await expect(inquiryLink(page)).toBeVisible();

  const download = page.waitForEvent("download");
  await page.getByRole("link", { name: "Export CSV" }).click();
  const file = await (await download).path();
  const csv = await readFile(file, "utf8");
  // Led by the byte-order mark Excel needs to read it as UTF-8.
  expect(csv.split("\n")[0]).toMatch(/^\uFEFFid,received_at,status,inquiry_type,first_name/);
  expect(csv).toContain(`Engines ${word}`);
  expect(csv).toContain(`answered,Predictive Analytics,Ada,Lovelace`);
  expect(csv.trim().split("\n")).toHaveLength(2);
});

test("a viewer reads an inquiry without the controls to change it", async ({ page, request }) => {
  const word = uniqueWord("read");
  await sendInquiry(request, word);
  const viewer = await consoleAccount("viewer", word);
  await signInToConsole(page, viewer, "/admin/inquiries");
  await searchFor(page, word);
  await inquiryLink(page).click();

  await expect(page.getByRole("heading", { name: "Ada Lovelace", level: 1 })).toBeVisible();
  const handling = page.getByRole("region", { name: "Handling" });
  await expect(handling).toContainText("Nobody");
  await expect(handling).toContainText("an editor or owner changes");
  await expect(page.getByRole("combobox")).toHaveCount(0);
  await expect(page.getByRole("textbox")).toHaveCount(0);
  await expect(page.getByRole("button", { name: /Save|Add note/ })).toHaveCount(0);
  await expect(page.getByRole("link", { name: "Reply by e-mail" })).toBeVisible();
  await expectNoAxeViolations(page);
});

test("an owner erases what a person sent, after typing their address", async ({
  page,
  request,
}) => {
  const word = uniqueWord("erase");
  await sendInquiry(request, word);
  await sendInquiry(request, word, { comments: `A second message. (${word})` });
  const owner = await consoleAccount("owner", word);
  await signInToConsole(page, owner, "/admin/inquiries");
  await page.getByRole("searchbox", { name: "Search" }).fill(word);
  await page.getByRole("button", { name: "Search", exact: true }).click();
  await expect(inquiryLink(page)).toHaveCount(2);
  await inquiryLink(page).first().click();

  const request_ = page.getByRole("region", { name: "On the person's request" });
  await request_.getByRole("button", { name: "Erase what they sent…" }).click();
  const dialog = page.getByRole("alertdialog", { name: "Erase everything this person sent?" });
  await expect(dialog).toBeVisible();
  await expect(dialog).toContainText(`ada.${word}@example.com`);
  await expectNoAxeViolations(page);
  const field = dialog.getByLabel("Type the address to confirm");
  await field.fill("someone@example.com");
  await dialog.getByRole("button", { name: "Erase for good" }).click();
  await expect(field).toHaveAccessibleDescription(/Type the address exactly as shown above/);
  await expect(dialog).toBeVisible();

  await field.fill(`ada.${word}@example.com`);
  await dialog.getByRole("button", { name: "Erase for good" }).click();
  await expect(page).toHaveURL(/\/admin\/inquiries$/);
  await expect(
    page.getByText(`Erased what ada.${word}@example.com sent: 2 inquiries`),
  ).toBeVisible();
  await page.getByRole("searchbox", { name: "Search" }).fill(word);
  await page.getByRole("button", { name: "Search", exact: true }).click();
  await expect(page).toHaveURL(new RegExp(`[?&]q=${word}`));
  await expect(page.getByText("No inquiries match this filter.")).toBeVisible();
});

test("an editor sees no way to erase", async ({ page, request }) => {
  const word = uniqueWord("noerase");
  await sendInquiry(request, word);
  const editor = await consoleAccount("editor", word);
  await signInToConsole(page, editor, "/admin/inquiries");
  await searchFor(page, word);
  await inquiryLink(page).click();
  await expect(page.getByRole("heading", { name: "Ada Lovelace", level: 1 })).toBeVisible();
  await expect(page.getByRole("region", { name: "On the person's request" })).toHaveCount(0);
});

test.describe("at 375 px", () => {
  test.use({ viewport: { width: 375, height: 800 } });

  test("the list and one inquiry fit the screen", async ({ page, request }) => {
    const word = uniqueWord("narrow");
    await sendInquiry(request, word, {
      // An address wider than the card's column, as other tests' addresses are.
      email: `a.rather.long.address.${word}@forecasting-department.example`,
      comments: `A long comment without spaces: ${"forecast".repeat(20)} (${word})`,
    });
    const editor = await consoleAccount("editor", word);
    await signInToConsole(page, editor, "/admin/inquiries");
    await searchFor(page, word);
    await expectNoSidewaysScroll(page);
    // Each row is a card: its status and assignee show without scrolling the table sideways.
    const row = page.getByRole("row").filter({ has: inquiryLink(page) });
    await expectWithinWindowWidth(page, row.getByText("New", { exact: true }));
    await expectWithinWindowWidth(page, row.getByText("Unassigned"));
    await expectNoAxeViolations(page);

    await inquiryLink(page).click();
    await expect(page.getByRole("button", { name: "Save status" })).toBeVisible();
    await expectNoSidewaysScroll(page);
    await expectNoAxeViolations(page);
  });
});

/** The inquiries behind the screenshots: a plausible morning's inbox. */
const SHOWCASE: Partial<Inquiry>[] = [
  {
    firstName: "Grace",
    lastName: "Hopper",
    company: "Harvard Computation Lab",
    inquiryType: "Machine Learning",
  },
  {
    firstName: "Katherine",
    lastName: "Johnson",
    company: "Langley Research",
    inquiryType: "Predictive Analytics",
  },
  { firstName: "Alan", lastName: "Turing", company: "", inquiryType: "Automation" },
  {
    firstName: "Margaret",
    lastName: "Hamilton",
    company: "Apollo Guidance Systems",
    inquiryType: "App development",
  },
  {
    firstName: "Tim",
    lastName: "Berners-Lee",
    company: "CERN Web Office",
    inquiryType: "Cloud Infrastructure",
  },
  {
    firstName: "Frances",
    lastName: "Allen",
    company: "Optimising Compilers Ltd",
    inquiryType: "Tech Stack Management",
  },
];

test.describe("screenshots @screenshots", () => {
  test("of the list and one inquiry at 375 and 1440 px", async ({ page, request }) => {
    const word = uniqueWord("shot");
    const ids: number[] = [];
    for (const fields of SHOWCASE) {
      ids.push(
        await sendInquiry(request, word, {
          ...fields,
          email: `${fields.firstName?.toLowerCase()}@example.com`,
          company: fields.company ?? "",
          comments:
            "We are growing quickly and our forecasts no longer keep up. Could we talk next week about what a first project with you would look like?",
        }),
      );
    }
    const editor = await consoleAccount("editor", "Dana");
    await page.setViewportSize({ width: 1440, height: 900 });
    await signInToConsole(page, editor, `/admin/inquiries/${ids[1]}`);
    await page.getByLabel("Status").selectOption("in-progress");
    await page.getByRole("button", { name: "Save status" }).click();
    await page.getByLabel("Assigned to").selectOption({ index: 1 });
    await page.getByRole("button", { name: "Save assignee" }).click();
    await page
      .getByRole("textbox", { name: "Add a note" })
      .fill("Called Katherine: they want a demand forecast for three regions. Proposal by Friday.");
    await page.getByRole("button", { name: "Add note" }).click();
    await expect(page.getByText("Note added.")).toBeVisible();
    await page.goto(`/admin/inquiries/${ids[0]}`);
    await page.getByLabel("Status").selectOption("answered");
    await page.getByRole("button", { name: "Save status" }).click();
    await expect(page.getByText("Status set to Answered.")).toBeVisible();

    for (const width of [375, 1440]) {
      await page.setViewportSize({ width, height: 900 });
      await page.goto("/admin/inquiries");
      await expect(page.getByRole("link", { name: "Grace Hopper" })).toBeVisible();
      await page.screenshot({
        path: `docs/screenshots/admin/inquiries-list-${width}.png`,
        fullPage: true,
      });
      await page.goto(`/admin/inquiries/${ids[1]}`);
      await expect(page.getByText("Proposal by Friday.")).toBeVisible();
      await page.screenshot({
        path: `docs/screenshots/admin/inquiries-detail-${width}.png`,
        fullPage: true,
      });
    }
  });
});

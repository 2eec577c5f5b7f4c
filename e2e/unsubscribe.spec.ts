import { DIALOG } from "../src/shared/constants.ts";
import type { ReceivedMail, TestSmtp } from "../test/support/smtp.ts";
import { type OwnServer, startOwnServer } from "./support/own-server.ts";
import { alertDialog, open } from "./support/page.ts";
import { expect, loadFailure, type Page, test } from "./support/test.ts";

// This journey needs a server that sends real e-mail, so it starts its own
// beside an SMTP server, instead of using the shared test server.

// One server for the file: its tests run one after another in one worker.
test.describe.configure({ mode: "serial" });

let own: OwnServer;
let smtp: TestSmtp;

test.beforeAll(async () => {
  own = await startOwnServer("unsubscribe");
  smtp = own.smtp;
});

test.afterAll(() => own.close());

function linkIn(mail: ReceivedMail): string {
  const href = /href="([^"]*\/unsubscribe\?token=[^"]+)"/.exec(mail.parsed.html ?? "")?.[1];
  if (!href) throw new Error("no unsubscribe link in the e-mail");
  return href.replace(/&amp;/g, "&");
}

async function subscribeInFooter(page: Page, email: string) {
  await page.getByRole("textbox", { name: "Email address" }).fill(email);
  await page.getByRole("button", { name: "Subscribe" }).click();
  await expect(alertDialog(page)).toContainText(DIALOG.subscribed);
  await alertDialog(page).getByRole("button", { name: DIALOG.confirm }).click();
}

const CHECK_API = /\/api\/v1\/unsubscribe\?token=/;

test("from the link in the welcome e-mail to unsubscribed, then subscribed again", async ({
  page,
  expectedErrors,
}) => {
  // Once subscribed again, the old link is no longer valid: its check answers 404.
  expectedErrors.add(loadFailure(404), { url: CHECK_API });
  await open(page, `${own.origin}/`);
  await subscribeInFooter(page, "journey@example.com");
  const [welcome] = await smtp.waitFor(1);
  if (!welcome) throw new Error("no welcome e-mail");
  const link = linkIn(welcome);
  expect(link.startsWith(`${own.origin}/unsubscribe?token=`)).toBe(true);

  await open(page, link);
  await expect(page.getByRole("heading", { level: 1 })).toHaveText("Unsubscribe from Insight?");
  await expect(page.getByText("jo•••••@example.com")).toBeVisible();
  await page.getByRole("button", { name: "Unsubscribe" }).click();
  await expect(page.getByRole("heading", { level: 1 })).toHaveText("You are unsubscribed");
  await expect(page.getByRole("banner")).toBeVisible();
  await expect(page.getByRole("contentinfo")).toBeVisible();

  await open(page, link);
  await expect(page.getByRole("heading", { level: 1 })).toHaveText("You are already unsubscribed");

  await subscribeInFooter(page, "journey@example.com");
  const [, again] = await smtp.waitFor(2);
  expect(again?.recipients).toEqual(["journey@example.com"]);

  await open(page, link);
  await expect(page.getByRole("heading", { level: 1 })).toHaveText("This link is not valid");
});

test("a malformed or missing token gets a clear page, not an error", async ({
  page,
  expectedErrors,
}) => {
  // The malformed token's check answers 400; without a token nothing is asked.
  expectedErrors.add(loadFailure(400), { url: /\/api\/v1\/unsubscribe\?token=nonsense$/ });
  for (const path of ["/unsubscribe?token=nonsense", "/unsubscribe"]) {
    await open(page, `${own.origin}${path}`);
    await expect(page.getByRole("heading", { level: 1 })).toHaveText("This link is not valid");
  }
});

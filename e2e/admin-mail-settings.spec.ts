/**
 * In the browser, on a server of its own with a real SMTP server beside it:
 * an owner sees which mail settings come from the server's settings,
 * changes the sender and where inquiries go, sees them saved, and sends
 * a test mail that arrives from the new sender. It passes axe and fits a
 * 375 px phone. With `npm run screenshots:console` it also writes the
 * screen's screenshots.
 */
import { mkdirSync } from "node:fs";
import { MAIL_SETTINGS_TEXTS } from "../src/shared/admin/mail-settings.ts";
import { expectNoAxeViolations } from "./support/axe.ts";
import { signInToConsole } from "./support/console.ts";
import { expectWithinWindowWidth } from "./support/page.ts";
import { onPreparedServer, type PreparedServer } from "./support/prepared-database.ts";
import { expect, type Page, test } from "./support/test.ts";

const DOMAIN = "meridian.example";
const OWNER = { role: "owner", email: `lena@${DOMAIN}`, name: "Lena Fischer" } as const;
const ENV = {
  MAIL_FROM: `"Meridian Consulting Group" <hello@${DOMAIN}>`,
  INQUIRY_TO: `inquiries@${DOMAIN}`,
};

/** Runs `use` signed in as the owner, on the Mail settings screen of a server of its own. */
async function onMailSettings(
  page: Page,
  label: string,
  use: (server: PreparedServer) => Promise<void>,
) {
  await onPreparedServer(
    label,
    OWNER,
    async () => {},
    async (server) => {
      await signInToConsole(page, server.account, `${server.origin}/admin/mail`);
      await expect(page.getByRole("heading", { level: 1, name: "Mail settings" })).toBeVisible();
      await use(server);
    },
    ENV,
  );
}

const setting = (page: Page, legend: string) => page.getByRole("group", { name: legend });

test("an owner changes the sender and the recipients, saves, and sends a test mail", async ({
  page,
}) => {
  test.info().setTimeout(90_000);
  await onMailSettings(page, "mail-settings", async (server) => {
    const sender = setting(page, "Sender");
    await expect(sender).toContainText(
      `${MAIL_SETTINGS_TEXTS.fromServer} Meridian Consulting Group <hello@${DOMAIN}>`,
    );
    await expect(page.getByLabel("Sender's name")).toHaveValue("Meridian Consulting Group");

    await page.getByLabel("Sender's name").fill("Meridian Partners");
    await page.getByLabel("Sender's address").fill(`partners@${DOMAIN}`);
    await page.getByLabel("Addresses").fill(`lena@${DOMAIN}\nnot-an-address`);
    await page.getByRole("button", { name: "Save", exact: true }).click();
    // The refusal stands by its field, and nothing typed is lost.
    await expect(setting(page, "Where inquiries go")).toContainText(
      "not-an-address is not a valid e-mail address.",
    );
    await expect(page.getByLabel("Sender's name")).toHaveValue("Meridian Partners");

    await page.getByLabel("Addresses").fill(`lena@${DOMAIN}\ninquiries@${DOMAIN}`);
    await page.getByRole("button", { name: "Save", exact: true }).click();
    await expect(
      page.getByRole("status").filter({ hasText: MAIL_SETTINGS_TEXTS.saved }),
    ).toBeVisible();
    await expect(sender).toContainText("Set here.");
    await expect(sender.getByRole("button", { name: MAIL_SETTINGS_TEXTS.useServer })).toBeVisible();
    await expectNoAxeViolations(page);

    await page.getByRole("button", { name: "Send a test mail" }).click();
    await expect(
      page.getByRole("status").filter({ hasText: "A test mail is on its way" }),
    ).toBeVisible();
    const [mail] = await server.smtp.waitForMailTo(OWNER.email);
    expect(mail?.parsed.from).toMatchObject({
      name: "Meridian Partners",
      address: `partners@${DOMAIN}`,
    });

    // Back to the server's sender: its value in the fields, and said to be the server's.
    await sender.getByRole("button", { name: MAIL_SETTINGS_TEXTS.useServer }).click();
    await expect(page.getByLabel("Sender's name")).toHaveValue("Meridian Consulting Group");
    await page.getByRole("button", { name: "Save", exact: true }).click();
    await expect(
      page.getByRole("status").filter({ hasText: MAIL_SETTINGS_TEXTS.saved }),
    ).toBeVisible();
    await expect(sender).toContainText(MAIL_SETTINGS_TEXTS.fromServer);
  });
});

test.describe("at 375 px", () => {
  test.use({ viewport: { width: 375, height: 800 } });

  test("the settings and the test mail fit the phone", async ({ page }) => {
    test.info().setTimeout(90_000);
    await onMailSettings(page, "mail-settings-phone", async () => {
      for (const legend of [
        "Sender",
        "Where inquiries go",
        "Newsletter's sending rate",
        "Double opt-in",
        "Welcome text",
      ]) {
        await expectWithinWindowWidth(page, setting(page, legend));
      }
      await expectWithinWindowWidth(page, page.getByRole("button", { name: "Send a test mail" }));
      await expectNoAxeViolations(page);
    });
  });
});

test("writes the screen's screenshots @screenshots", async ({ page }) => {
  const dir = "docs/screenshots/admin";
  mkdirSync(dir, { recursive: true });
  test.info().setTimeout(90_000);
  await onMailSettings(page, "mail-settings-shots", async () => {
    // One setting set here, the others from the server: both ways of showing where a value comes from.
    await page.getByLabel("Addresses").fill(`lena@${DOMAIN}\ninquiries@${DOMAIN}`);
    await page.getByRole("button", { name: "Save", exact: true }).click();
    await expect(
      page.getByRole("status").filter({ hasText: MAIL_SETTINGS_TEXTS.saved }),
    ).toBeVisible();
    for (const width of [375, 1440]) {
      await page.setViewportSize({ width, height: 900 });
      await page.reload();
      await expect(setting(page, "Sender")).toBeVisible();
      await page.screenshot({ path: `${dir}/mail-settings-${width}.png`, fullPage: true });
    }
  });
});

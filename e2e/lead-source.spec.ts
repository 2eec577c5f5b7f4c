/**
 * Every lead has its source, in the browser: a visit that arrives from a
 * search engine with UTM tags keeps them for the visit, sends them with the
 * inquiry made two pages later, and the console's inquiry shows them. The
 * detail is looked at on a phone and on a wide screen.
 */
import { randomBytes, randomInt } from "node:crypto";
import { devices } from "@playwright/test";
import { DIALOG } from "../src/shared/constants.ts";
import { expectNoAxeViolations } from "./support/axe.ts";
import { consoleAccount, signInToConsole } from "./support/console.ts";
import { fillInquiry, inquiryForm, SAMPLE_INQUIRY } from "./support/inquiry.ts";
import { alertDialog, expectNoSidewaysScroll, whenHydrated } from "./support/page.ts";
import { expect, test } from "./support/test.ts";

// A visitor of its own: the audience tells visitors apart by address and
// browser, and every browser of the run comes from 127.0.0.1 with one user
// agent, so another test's tagged link would begin a new visit in its place
// before its inquiry is sent. A Chrome build number of its own sets it apart.
test.use({
  userAgent: devices["Desktop Chrome"].userAgent.replace(
    /Chrome\/[\d.]+/,
    `Chrome/131.0.${randomInt(1_000, 10_000)}.0`,
  ),
});

test("an inquiry from a search visit with UTM tags shows its source, and the Audience area counts both", async ({
  page,
}, testInfo) => {
  const word = `source${randomBytes(4).toString("hex")}`;
  await page.goto(`/?utm_source=x&utm_medium=y&utm_campaign=${word}`, {
    referer: "https://www.google.com/",
  });
  await whenHydrated(page);
  await page.locator('main a[href="/contact-us"]').first().click();
  await expect(page).toHaveURL(/\/contact-us$/);
  await fillInquiry(page, { ...SAMPLE_INQUIRY, company: word, comments: `Found you, ${word}` });
  const sent = page.waitForRequest(/\/api\/v1\/send-comment/);
  await inquiryForm(page).locator("button[type=submit]").click();
  expect((await sent).postDataJSON().source).toEqual({
    entryPage: "/",
    referrer: "www.google.com",
    utmSource: "x",
    utmMedium: "y",
    utmCampaign: word,
  });
  await expect(alertDialog(page).getByRole("heading")).toHaveText(DIALOG.successTitle);

  const viewer = await consoleAccount("viewer", "lead-source");
  await signInToConsole(page, viewer, `/admin/inquiries?q=${word}`);
  await page.getByRole("link", { name: "Ada Lovelace" }).click();
  const source = page.getByRole("region", { name: "Source" });
  await expect(source.getByRole("definition")).toHaveText([
    "/",
    "google.com",
    "Search",
    `${word} (x / y)`,
  ]);
  await expect(source.getByRole("term")).toHaveText([
    "Entry page",
    "Referrer",
    "Channel",
    "Campaign (UTM)",
  ]);

  const inquiryUrl = page.url();

  // The Audience area: the visit counted under its campaign, with the
  // inquiry it brought: each reaches the figures with the e2e server's next
  // flush (every second), so the page is read again until both are there.
  // Visits, inquiries, subscriptions, conversion (the campaign is the row's header).
  await page.goto("/admin/audience?range=today");
  const campaigns = page.getByRole("region", { name: "UTM campaigns" });
  await expect(async () => {
    await page.reload();
    await expect(
      campaigns.getByRole("row", { name: new RegExp(word) }).getByRole("cell"),
    ).toHaveText(["1", "1", "0", "100%"], { timeout: 1000 });
  }).toPass();

  await page.goto(inquiryUrl);
  for (const width of [375, 1440]) {
    await page.setViewportSize({ width, height: width === 375 ? 812 : 900 });
    await expectNoSidewaysScroll(page);
    await expect(source).toBeVisible();
    await page.screenshot({
      path: testInfo.outputPath(`inquiry-source-${width}.png`),
      fullPage: true,
    });
    await expectNoAxeViolations(page);
  }
});

test("without JavaScript, the form's own page and its UTM tags are the inquiry's source", async ({
  browser,
  page,
}) => {
  const word = `nojs${randomBytes(4).toString("hex")}`;
  const noScript = await browser.newContext({ javaScriptEnabled: false });
  try {
    const visitor = await noScript.newPage();
    await visitor.goto("/contact-us?utm_source=linkedin&utm_medium=social&utm_campaign=nojs", {
      referer: "https://www.google.com/",
    });
    await fillInquiry(visitor, {
      ...SAMPLE_INQUIRY,
      company: word,
      comments: `No script, ${word}`,
    });
    const answered = visitor.waitForResponse(
      (response) =>
        response.url().includes("/contact-us") && response.request().method() === "POST",
    );
    await inquiryForm(visitor).getByRole("button", { name: "Submit" }).click();
    expect((await answered).status()).toBe(200);
  } finally {
    await noScript.close();
  }

  const viewer = await consoleAccount("viewer", "lead-source-nojs");
  await signInToConsole(page, viewer, `/admin/inquiries?q=${word}`);
  await page.getByRole("link", { name: "Ada Lovelace" }).click();
  // The page's own referrer is not known to a post without script: "None".
  await expect(page.getByRole("region", { name: "Source" }).getByRole("definition")).toHaveText([
    "/contact-us",
    "None",
    "Social",
    "nojs (linkedin / social)",
  ]);
});

/**
 * In the console: an editor writes an issue (the
 * address suggested from the title, a picture put in at the cursor), sees the
 * e-mail at desktop and phone width, the web page and the plain text, sends
 * a test to their own address and a colleague's (an address that is not one
 * refused by the field), which arrives in the mailbox, is refused a time in the past,
 * schedules the issue and unschedules it; a stale save keeps the text, a
 * taken address is refused by its field, a draft is deleted; a viewer reads
 * without controls; the progress view follows a send live. Every state
 * passes axe, at 375 px too.
 *
 * Nothing here sends an issue to the subscribers of the shared test server
 * (other tests read its mailbox and its archive): the progress view is fed
 * the send's states through the network, as the server would answer them.
 * The real send is tested on a server of its own.
 */
import { mkdirSync } from "node:fs";
import sharp from "sharp";
import {
  type IssueDetail,
  type IssueProgress,
  NEWSLETTER_PATHS,
  NEWSLETTER_TEXTS,
  slugify,
} from "../src/shared/admin/newsletter.ts";
import { COLORS } from "../src/shared/design-tokens.ts";
import { insightIssuePath } from "../src/shared/routes.ts";
import { expectNoAxeViolations as expectNoAxeViolationsOn } from "./support/axe.ts";
import { consoleAccount, signInToConsole } from "./support/console.ts";
import { mailboxMessages } from "./support/mailbox.ts";
import { expectNoSidewaysScroll, expectWithinWindowWidth } from "./support/page.ts";
import { previewFrame, test as previewTest } from "./support/previews.ts";
import { expect, type Locator, loadFailure, type Page } from "./support/test.ts";

/** The test server leaves PUBLIC_ORIGIN at its default, where the e-mail's absolute picture URLs point. */
const DEFAULT_PUBLIC_ORIGIN = "http://localhost:3000";

const test = previewTest.extend<{ pictures: undefined }>({
  // The pictures the e-mail shows come from the test server itself.
  pictures: [
    async ({ page, baseURL }, use) => {
      await page.context().route(`${DEFAULT_PUBLIC_ORIGIN}/images/**`, async (route) => {
        const url = route
          .request()
          .url()
          .replace(DEFAULT_PUBLIC_ORIGIN, baseURL ?? "");
        await route.fulfill({ response: await route.fetch({ url }) });
      });
      await use(undefined);
    },
    { auto: true },
  ],
});

const uniqueTitle = (label: string) =>
  `${label} ${Date.now().toString(36)}${Math.random().toString(36).slice(2, 6)}`;

const SUMMARY = "Where the cloud money goes, and the three changes that bring it back.";
const BODY = [
  "## Where the money goes",
  "",
  "Most of the bill is *idle capacity*: machines kept warm for a peak that comes twice a year.",
  "",
  "> Measure first, then cut.",
  "",
  "- Turn off what nobody uses",
  "- Buy commitments for the base load",
  "- Let the peaks scale",
  "",
  "Read [our cost review](https://example.com/review) for the details.",
].join("\n");

const PREVIEWS = {
  desktop: "The e-mail at a desktop mail program's width",
  phone: "The e-mail at a phone's width",
  web: "The issue's page in the archive on the site",
  text: "The e-mail's plain-text part",
} as const;

/** A chart-like picture drawn for the test: bars on the site's paper. */
function chartPng(): Promise<Buffer> {
  const bars = [300, 420, 260, 520, 380]
    .map(
      (height, index) =>
        `<rect x="${120 + index * 190}" y="${700 - height}" width="120" height="${height}" fill="${index === 3 ? COLORS.accent : COLORS.night}"/>`,
    )
    .join("");
  const svg = `<svg xmlns="http://www.w3.org/2000/svg" width="1200" height="800"><rect width="1200" height="800" fill="${COLORS.paperDeep}"/>${bars}</svg>`;
  return sharp(Buffer.from(svg)).png().toBuffer();
}

/** Writes a new issue through the form and creates it; answers its id. */
async function createIssue(page: Page, title: string, body = BODY): Promise<number> {
  await page.goto("/admin/newsletter/new");
  await page.getByLabel("Title").fill(title);
  await page.getByLabel("Summary").fill(SUMMARY);
  await page.getByLabel("Body").fill(body);
  await page.getByRole("button", { name: "Create draft" }).click();
  await expect(page.getByText(/^Created as a draft\./)).toBeVisible();
  return Number(new URL(page.url()).pathname.split("/").at(-1));
}

/** A `datetime-local` value `days` from now, at 09:00 in the browser's time zone. */
async function localDay(page: Page, days: number): Promise<string> {
  return page.evaluate((offset) => {
    const day = new Date();
    day.setDate(day.getDate() + offset);
    const pad = (n: number) => String(n).padStart(2, "0");
    return `${day.getFullYear()}-${pad(day.getMonth() + 1)}-${pad(day.getDate())}T09:00`;
  }, days);
}

/**
 * axe on the console's page, leaving out the preview frames: they are the
 * server's renderings, served with a policy that forbids every script (axe's
 * too), so axe could only time out in them.
 */
const expectNoAxeViolations = (page: Page) =>
  expectNoAxeViolationsOn(page, { exclude: ".preview-frame" });

test.describe("writing an issue", () => {
  test.use({ viewport: { width: 1440, height: 1000 } });

  test("an editor writes, previews, tests, schedules and unschedules an issue", async ({
    page,
  }) => {
    test.slow(); // the whole path, with an upload, the outbox's delivery and six runs of axe
    const editor = await consoleAccount("editor", "newsletter-write");
    await signInToConsole(page, editor, "/admin/newsletter");
    await page.getByRole("link", { name: "New issue" }).click();
    await expect(page.getByRole("heading", { level: 1, name: "New issue" })).toBeVisible();

    // The address follows the title until the editor writes one; the hint shows it as it will read.
    const hint = page.getByText("The issue is published at");
    await expect(hint).toContainText("/insight/….");
    const title = uniqueTitle("Cloud costs in 2026:");
    await page.getByLabel("Title").fill(title);
    await expect(page.getByLabel("Address")).toHaveValue(slugify(title));
    await expect(hint).toContainText(`/insight/${slugify(title)}.`);
    await page.getByLabel("Address").fill("cloud-costs");
    await page.getByLabel("Title").fill(`${title}!`);
    await expect(page.getByLabel("Address")).toHaveValue("cloud-costs");
    await page.getByLabel("Address").fill("");
    await page.getByLabel("Title").fill(title);
    await expect(page.getByLabel("Address")).toHaveValue(slugify(title));

    await page.getByLabel("Summary").fill(SUMMARY);
    await page.getByLabel("Body").fill(BODY);
    await page.getByRole("button", { name: "Create draft" }).click();
    await expect(page.getByText(/^Created as a draft\./)).toBeVisible();
    await expect(page.getByRole("heading", { level: 1, name: title })).toBeVisible();
    await expect(page).toHaveURL(/\/admin\/newsletter\/\d+$/);
    await expectNoAxeViolations(page);

    // A picture goes in at the cursor: after the first paragraph.
    const body = page.getByLabel("Body");
    const afterFirstParagraph = BODY.indexOf("\n\n> Measure");
    await body.evaluate(
      (area: HTMLTextAreaElement, at) => area.setSelectionRange(at, at),
      afterFirstParagraph,
    );
    const picture = page.getByLabel("Picture");
    await picture.setInputFiles({
      name: "chart.png",
      mimeType: "image/png",
      buffer: await chartPng(),
    });
    await expect(page.getByText("Describe the picture first, then choose it.")).toBeVisible();
    await page.getByLabel("Its description").fill("Bars: the cloud bill per quarter");
    await picture.setInputFiles({
      name: "chart.png",
      mimeType: "image/png",
      buffer: await chartPng(),
    });
    await expect(
      page.getByRole("status").filter({ hasText: "Inserted at the cursor." }),
    ).toBeVisible();
    const withPicture = await body.inputValue();
    const markdown =
      /!\[Bars: the cloud bill per quarter\]\((\/images\/insight\/[0-9a-f]+\.webp)\)/;
    expect(withPicture).toMatch(markdown);
    expect(withPicture.indexOf("![")).toBe(afterFirstParagraph + 2);

    // The draft saves itself once the typing pauses, which reloads the preview: it shows the picture.
    await expect(page.getByTestId("autosave-status")).toHaveText(/^Saved at \d{2}:\d{2}$/);
    const desktop = previewFrame(page, PREVIEWS.desktop);
    await expect(desktop.locator("body")).toContainText(title);
    await expect(
      desktop.getByRole("img", { name: "Bars: the cloud bill per quarter" }),
    ).toBeVisible();
    await expect(desktop.getByRole("heading", { name: "Where the money goes" })).toBeVisible();

    for (const [view, frameTitle] of [
      ["Phone", PREVIEWS.phone],
      ["Web page", PREVIEWS.web],
    ] as const) {
      await page.getByRole("radio", { name: view }).check();
      await expect(previewFrame(page, frameTitle).locator("body")).toContainText(title);
    }
    await page.getByRole("radio", { name: "Plain text" }).check();
    await expect(page.getByRole("region", { name: PREVIEWS.text })).toContainText(title);
    await expect(page.getByRole("region", { name: PREVIEWS.text })).toContainText(
      "Measure first, then cut.",
    );
    await expectNoAxeViolations(page);

    // The test goes to the editor's own address, written in for them, and to the ones they add.
    const testTo = page.getByLabel("Send a test to");
    await expect(testTo).toHaveValue(editor.email);
    await expect(testTo).toHaveAccessibleDescription(NEWSLETTER_TEXTS.testAddressesHint);
    await testTo.fill(`${editor.email}, jane@acme`);
    await page.getByRole("button", { name: "Send a test" }).click();
    await expect(page.getByText("jane@acme is not a valid e-mail address.")).toBeVisible();
    await expect(testTo).toHaveAttribute("aria-invalid", "true");
    await expectNoAxeViolations(page);
    const colleague = "colleague@firm.example";
    await testTo.fill(`${editor.email}, ${colleague}`);
    await page.getByRole("button", { name: "Send a test" }).click();
    await expect(
      page
        .getByRole("status")
        .filter({ hasText: NEWSLETTER_TEXTS.testSent([editor.email, colleague]) }),
    ).toBeVisible();
    await expect(testTo).not.toHaveAttribute("aria-invalid");
    for (const address of [editor.email, colleague]) {
      await expect
        .poll(
          async () =>
            (await mailboxMessages()).some(
              (message) => message.to.includes(address) && message.subject === `[Test] ${title}`,
            ),
          { timeout: 15_000 },
        )
        .toBe(true);
    }

    // "Send now" says how many it goes to, and waits for a yes.
    await page.getByRole("button", { name: "Send now…" }).click();
    const confirmation = page.getByRole("alertdialog", { name: `Send “${title}” now?` });
    await expect(confirmation.getByText(/^It goes to \d+ active subscribers?\.$/)).toBeVisible();
    await expect(
      confirmation.getByRole("button", { name: /^Send to \d+ active subscribers?$/ }),
    ).toBeVisible();
    await expectNoAxeViolations(page);
    await confirmation.getByRole("button", { name: "Not yet" }).click();
    await expect(confirmation).toBeHidden();

    // A time in the past is refused in the form; one in the future schedules it.
    const when = page.getByLabel("Schedule for");
    await when.fill(await localDay(page, -1));
    await page.getByRole("button", { name: "Schedule", exact: true }).click();
    await expect(page.getByText(NEWSLETTER_TEXTS.inThePast)).toBeVisible();
    await expect(when).toHaveAttribute("aria-invalid", "true");
    await when.fill(await localDay(page, 1));
    await page.getByRole("button", { name: "Schedule", exact: true }).click();

    const send = page.getByRole("region", { name: "The send", exact: true });
    await expect(
      send.getByText(/^Scheduled for .+\. Nothing goes out before then\.$/),
    ).toBeVisible();
    await expect(page.getByLabel("Title")).toHaveCount(0);
    await expect(page.getByRole("region", { name: "The issue", exact: true })).toContainText(
      SUMMARY,
    );
    await expectNoAxeViolations(page);

    await send.getByRole("button", { name: "Unschedule" }).click();
    await expect(page.getByLabel("Title")).toHaveValue(title);
    // The button is gone with the view it was in: the focus goes to the issue's title.
    await expect(page.getByRole("heading", { level: 1, name: title })).toBeFocused();
    await expect(page.locator(".issue-meta")).toContainText("Draft");

    // The list shows it as a draft again.
    await page.getByRole("link", { name: "All issues" }).click();
    const row = page.getByRole("row").filter({ hasText: title });
    await expect(row).toContainText("Draft");
    await expectNoAxeViolations(page);
  });

  test("a stale save and a taken address are refused, keeping the text; a draft is deleted", async ({
    page,
    expectedErrors,
  }) => {
    expectedErrors.add(loadFailure(409), { times: 2 });
    await signInToConsole(page, await consoleAccount("editor", "newsletter-stale"));
    const title = uniqueTitle("Stale");
    await createIssue(page, title);
    const second = await page.context().newPage();
    await second.goto(page.url());
    await expect(second.getByLabel("Body")).toHaveValue(BODY);

    // Each tab saves as it is typed; the second tab's save, on the old version, is refused once.
    await page.getByLabel("Body").fill("Saved in the first tab.");
    await expect(page.getByTestId("autosave-status")).toHaveText(/^Saved at/);

    const typed = "Typed in the second tab, on the old version.";
    await second.getByLabel("Body").fill(typed);
    await expect(second.getByRole("alert")).toContainText(NEWSLETTER_TEXTS.stale);
    await expect(second.getByTestId("autosave-status")).toContainText(
      `Not saved yet: ${NEWSLETTER_TEXTS.stale}`,
    );
    await expect(second.getByLabel("Body")).toHaveValue(typed);
    await expectNoAxeViolations(second);

    await second.getByRole("button", { name: "Load their version" }).click();
    await expect(second.getByLabel("Body")).toHaveValue("Saved in the first tab.");

    // An address another issue has is refused next to the field.
    await page.goto("/admin/newsletter/new");
    await page.getByLabel("Title").fill(title);
    await page.getByLabel("Summary").fill(SUMMARY);
    await page.getByLabel("Body").fill(BODY);
    await page.getByRole("button", { name: "Create draft" }).click();
    await expect(page.getByText(NEWSLETTER_TEXTS.slugTaken)).toBeVisible();
    await expect(page.getByLabel("Address")).toHaveAttribute("aria-invalid", "true");

    // A draft can be deleted, after a confirmation.
    await second.getByRole("button", { name: "Delete this draft…" }).click();
    const confirmation = second.getByRole("alertdialog", { name: "Delete this draft?" });
    await expect(confirmation).toContainText(title);
    await confirmation.getByRole("button", { name: "Delete the draft" }).click();
    await expect(second.getByText(`The draft “${title}” was deleted.`)).toBeVisible();
    await expect(second.getByRole("link", { name: title })).toHaveCount(0);
  });

  test("a viewer reads the issues and their previews, without a control to change them", async ({
    page,
  }) => {
    await signInToConsole(page, await consoleAccount("editor", "newsletter-viewer"));
    const title = uniqueTitle("For viewers");
    await createIssue(page, title);
    await page.getByRole("button", { name: "Sign out" }).click();

    await signInToConsole(page, await consoleAccount("viewer", "newsletter-viewer"));
    await page
      .getByRole("navigation", { name: "Console" })
      .getByRole("link", { name: "Newsletter" })
      .click();
    await expect(page.getByRole("heading", { level: 1, name: "Newsletter" })).toBeVisible();
    await expect(page.getByRole("link", { name: title })).toBeVisible();
    await expect(page.getByRole("link", { name: "New issue" })).toHaveCount(0);

    await page.getByRole("link", { name: title }).click();
    await expect(page.getByRole("heading", { level: 1, name: title })).toBeVisible();
    await expect(page.getByRole("region", { name: "The issue", exact: true })).toContainText(
      SUMMARY,
    );
    await expect(previewFrame(page, PREVIEWS.desktop).locator("body")).toContainText(title);
    await expect(page.getByRole("textbox")).toHaveCount(0);
    for (const name of ["Save", "Send a test", "Send now…", "Schedule", "Delete this draft…"]) {
      await expect(page.getByRole("button", { name, exact: true })).toHaveCount(0);
    }
    await expectNoAxeViolations(page);

    await page.goto("/admin/newsletter/new");
    await expect(page).toHaveURL(/\/admin\/newsletter$/);
  });
});

/** The issue as the server would answer it while its send moves on. */
function during(issue: IssueDetail, progress: Partial<IssueProgress>): IssueDetail {
  const status = progress.status ?? issue.status;
  return { ...issue, status, progress: { ...issue.progress, ...progress, status } };
}

const SENDING: Partial<IssueProgress> = {
  status: "sending",
  recipients: 300,
  queued: 180,
  sent: 118,
  failed: 2,
  withdrawn: 0,
  queuedAll: true,
  rate: 10,
  startedAt: new Date(Date.now() - 12_000).toISOString(),
};

/**
 * Answers the issue's GET with `state.current` and each control's POST with
 * the state it leads to, as the server would; the test moves `state.current` on.
 */
async function feedSend(page: Page, issue: IssueDetail) {
  const state = { current: during(issue, SENDING), polls: 0 };
  await page.route(`**${NEWSLETTER_PATHS.one(issue.id)}`, (route) => {
    if (route.request().method() !== "GET") return route.fallback();
    state.polls += 1;
    return route.fulfill({ json: state.current });
  });
  const control = (path: string, next: Partial<IssueProgress>) =>
    page.route(`**${path}`, (route) => {
      state.current = during(issue, { ...SENDING, ...next });
      return route.fulfill({ json: state.current });
    });
  await control(NEWSLETTER_PATHS.pause(issue.id), { status: "paused" });
  await control(NEWSLETTER_PATHS.resume(issue.id), {
    status: "sending",
    queued: 120,
    sent: 178,
  });
  return state;
}

const SENT: Partial<IssueProgress> = {
  status: "sent",
  queued: 0,
  sent: 297,
  failed: 3,
  finishedAt: new Date().toISOString(),
};

test("the progress view follows a send live, pauses, resumes and asks before cancelling", async ({
  page,
}) => {
  await page.setViewportSize({ width: 1440, height: 1000 });
  await signInToConsole(page, await consoleAccount("editor", "newsletter-progress"));
  const id = await createIssue(page, uniqueTitle("Live"));
  const issue = (await (await page.request.get(NEWSLETTER_PATHS.one(id))).json()) as IssueDetail;
  const state = await feedSend(page, issue);
  await page.reload();
  /** How many times the screen has asked for the issue once `ms` have passed on its clock. */
  const pollsAfter = async (ms: number) => {
    await page.clock.runFor(ms);
    // A request of the page's own, answered after any poll its timers just started.
    await page.evaluate(() => fetch("/readyz"));
    return state.polls;
  };

  const send = page.getByRole("region", { name: "The send", exact: true });
  const bar = send.getByRole("progressbar", { name: "Progress" });
  await expect(
    send.getByText("Sending: 120 of 300 done (40 %). 118 sent, 2 failed, 0 withdrawn."),
  ).toHaveAttribute("aria-live", "polite");
  await expect(bar).toHaveAttribute("value", "0.4");
  await expect(send.getByText("10 messages a second")).toBeVisible();
  await expectNoAxeViolations(page);

  await send.getByRole("button", { name: "Pause" }).click();
  await expect(send.getByText(/^Paused at 120 of 300 done \(40 %\)\./)).toBeVisible();
  await expect(send.getByRole("button", { name: "Pause" })).toHaveCount(0);
  await expect(send.getByRole("button", { name: "Resume" })).toBeFocused();

  await send.getByRole("button", { name: "Cancel the send…" }).click();
  const cancel = page.getByRole("alertdialog", { name: "Cancel this send?" });
  await expect(cancel).toContainText("180 now");
  await expectNoAxeViolations(page);
  await cancel.getByRole("button", { name: "Keep sending" }).click();
  await expect(cancel).toBeHidden();

  // From here the screen's clock moves only when the test moves it: each poll is seen, and
  // so is none. Paused, nothing moves on its own, so the screen does not ask.
  await page.clock.install();
  await page.clock.pauseAt(Date.now() + 1_000);
  const paused = await pollsAfter(0);
  expect(await pollsAfter(10_000)).toBe(paused);

  // Resumed, it asks every 1.5 s, and follows the send to its end.
  await send.getByRole("button", { name: "Resume" }).click();
  await expect(send.getByText(/^Sending: 180 of 300 done \(60 %\)\./)).toBeVisible();
  expect(await pollsAfter(1_600)).toBe(paused + 1);
  state.current = during(issue, { ...SENDING, ...SENT });
  expect(await pollsAfter(1_600)).toBe(paused + 2);
  await expect(send.getByText("Sent: 100 %. 297 sent, 3 failed, 0 withdrawn.")).toBeVisible();
  await expect(bar).toHaveAttribute("value", "1");
  await expect(send.getByText("100 %", { exact: true })).toBeVisible();
  await expect(page.locator(".issue-meta")).toContainText("Sent");
  await expect(send.getByRole("link", { name: /Read it on the site/ })).toHaveAttribute(
    "href",
    insightIssuePath(issue.slug),
  );
  await expect(send.getByRole("button")).toHaveCount(0);
  // Sent, it stops asking.
  expect(await pollsAfter(15_000)).toBe(paused + 2);
  await page.clock.resume(); // axe keeps time with timers of its own
  await expectNoAxeViolations(page);
});

test.describe("at 375 px", () => {
  test.use({ viewport: { width: 375, height: 800 } });

  test("the list, the form with its refusals, the preview and the scheduled issue fit and pass axe", async ({
    page,
  }) => {
    await signInToConsole(
      page,
      await consoleAccount("editor", "newsletter-phone"),
      "/admin/newsletter",
    );
    await expect(page.getByRole("table", { name: "Insight issues, newest first" })).toBeVisible();
    await expectNoAxeViolations(page);
    await expectNoSidewaysScroll(page);

    await page.getByRole("link", { name: "New issue" }).click();
    await page.getByRole("button", { name: "Create draft" }).click();
    await expect(page.getByText("Write the title.")).toBeVisible();
    await expect(page.getByLabel("Body")).toHaveAttribute("aria-invalid", "true");
    await expectNoAxeViolations(page);
    await expectNoSidewaysScroll(page);

    // On a phone, the preview first shows the e-mail as a phone does.
    const title = uniqueTitle("On a phone");
    await createIssue(page, title);
    await expect(page.getByRole("radio", { name: "Phone" })).toBeChecked();
    await expect(previewFrame(page, PREVIEWS.phone).locator("body")).toContainText(title);
    await page.getByRole("radio", { name: "Desktop" }).check();
    await expect(previewFrame(page, PREVIEWS.desktop).locator("body")).toContainText(title);
    await expectNoAxeViolations(page);
    await expectNoSidewaysScroll(page);

    // Six long addresses: the refusal wraps inside the panel; nothing is sent.
    const six = Array.from(
      { length: 6 },
      (_, n) => `a-rather-long-name-${n}@newsletter-readers.example`,
    );
    await page.getByLabel("Send a test to").fill(six.join(", "));
    await page.getByRole("button", { name: "Send a test" }).click();
    await expect(page.getByText(NEWSLETTER_TEXTS.testTooManyAddresses)).toBeVisible();
    await expectNoAxeViolations(page);
    await expectNoSidewaysScroll(page);

    await page.getByLabel("Schedule for").fill(await localDay(page, 2));
    await page.getByRole("button", { name: "Schedule", exact: true }).click();
    await expect(page.getByRole("button", { name: "Unschedule" })).toBeVisible();
    await expectNoAxeViolations(page);
    await expectNoSidewaysScroll(page);
    await page.getByRole("button", { name: "Unschedule" }).click();
    await expect(page.getByLabel("Title")).toHaveValue(title);

    // In the list each issue is a card: its status shows without scrolling the table sideways.
    await page.goto("/admin/newsletter");
    const row = page.getByRole("row").filter({ hasText: title });
    await expectWithinWindowWidth(page, row.getByText("Draft", { exact: true }));
    await expectNoSidewaysScroll(page);
  });
});

/** A full-page shot from the top (the console's bar sticks to the top of the view). */
async function screenshot(page: Page, name: string, width: number) {
  await page.evaluate(() => window.scrollTo(0, 0));
  await page.screenshot({
    path: `docs/screenshots/admin/newsletter-${name}-${width}.png`,
    fullPage: true,
  });
}

/** Just `region`, from the whole page (where the console's bar, which sticks to the view, stays at the top). */
async function screenshotOf(page: Page, region: Locator, name: string, width: number) {
  const box = await region.boundingBox();
  if (!box) throw new Error(`${name}: the region is not on the page`);
  const scrolled = await page.evaluate(() => window.scrollY);
  await page.screenshot({
    path: `docs/screenshots/admin/newsletter-${name}-${width}.png`,
    fullPage: true,
    clip: { ...box, y: box.y + scrolled },
  });
}

test("writes the area's screenshots @screenshots", async ({ page }) => {
  mkdirSync("docs/screenshots/admin", { recursive: true });
  await page.setViewportSize({ width: 1440, height: 900 });
  await signInToConsole(page, await consoleAccount("editor", "newsletter-shots"));
  const scheduled = await createIssue(page, "Data platforms that pay for themselves");
  await page.getByLabel("Schedule for").fill(await localDay(page, 9));
  await page.getByRole("button", { name: "Schedule", exact: true }).click();
  await expect(page.getByRole("button", { name: "Unschedule" })).toBeVisible();
  const id = await createIssue(page, "Cloud costs in 2026: where the money goes");
  await page.getByLabel("Its description").fill("Bars: the cloud bill per quarter");
  await page
    .getByLabel("Picture")
    .setInputFiles({ name: "chart.png", mimeType: "image/png", buffer: await chartPng() });
  await expect(
    page.getByRole("status").filter({ hasText: "Inserted at the cursor." }),
  ).toBeVisible();
  await expect(page.getByTestId("autosave-status")).toHaveText(/^Saved at/);
  const issue = (await (await page.request.get(NEWSLETTER_PATHS.one(id))).json()) as IssueDetail;

  for (const width of [375, 1440]) {
    await page.setViewportSize({ width, height: 900 });
    await page.goto("/admin/newsletter");
    await expect(page.getByRole("link", { name: issue.title })).toBeVisible();
    await screenshot(page, "list", width);

    // A phone's screen shows the phone's view first; a desktop's, the desktop's.
    await page.goto(`/admin/newsletter/${id}`);
    const shown = width < 600 ? PREVIEWS.phone : PREVIEWS.desktop;
    await expect(
      previewFrame(page, shown).getByRole("img", { name: "Bars: the cloud bill per quarter" }),
    ).toBeVisible();
    await screenshot(page, "edit", width);
    if (width >= 600) {
      await page.getByRole("radio", { name: "Phone" }).check();
      await expect(previewFrame(page, PREVIEWS.phone).locator("body")).toContainText(issue.title);
      await screenshotOf(
        page,
        page.getByRole("region", { name: "Preview", exact: true }),
        "preview-phone",
        width,
      );
    }

    await page.goto(`/admin/newsletter/${scheduled}`);
    await expect(page.getByRole("button", { name: "Unschedule" })).toBeVisible();
    await screenshot(page, "scheduled", width);
  }

  // The send's states, as the server answers them while it goes out.
  const state = await feedSend(page, issue);
  for (const width of [375, 1440]) {
    await page.setViewportSize({ width, height: 900 });
    state.current = during(issue, SENDING);
    await page.goto(`/admin/newsletter/${id}`);
    await expect(page.getByText(/^Sending: 120 of 300/)).toBeVisible();
    await screenshot(page, "sending", width);
    state.current = during(issue, { ...SENDING, ...SENT });
    await expect(page.getByText(/^Sent: 100 %/)).toBeVisible();
    await screenshot(page, "sent", width);
  }
});

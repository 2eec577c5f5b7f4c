/**
 * In the browser: an editor uploads a new portrait and sees
 * it on /weare once published, restores the earlier version, reorders the
 * capabilities by keyboard and sees the order on /wedo, and meets the
 * refusal to publish a second tab's draft of an older version, with the
 * typed text kept. axe checks each screen in each state.
 *
 * They run on their worker's own server (support/content-server.ts), which
 * no page test reads. The tests of a worker share it: every change a test
 * makes to what the site shows is undone before it ends, and the records it
 * creates are hidden.
 */
import { randomBytes } from "node:crypto";
import sharp from "sharp";
import {
  CONTENT_PATHS,
  CONTENT_TEXTS,
  type Entry,
  MEDIA_API,
} from "../src/shared/admin/content.ts";
import { DRAFT_PATHS, DRAFT_TEXTS } from "../src/shared/admin/content-drafts.ts";
import { COLORS } from "../src/shared/design-tokens.ts";
import { expectNoAxeViolations } from "./support/axe.ts";
import { signInToConsole } from "./support/console.ts";
import { expect, loadFailure, type Page, test } from "./support/content-server.ts";
import { alertDialog } from "./support/page.ts";

const uniqueWord = (label: string) => `${label}-${randomBytes(4).toString("hex")}`;

/** A portrait-shaped picture, drawn for the test: a head and shoulders on the accent colour. */
function portraitPng(shade: string = COLORS.accent): Promise<Buffer> {
  const svg = `<svg xmlns="http://www.w3.org/2000/svg" width="960" height="1200">
    <rect width="960" height="1200" fill="${shade}"/>
    <circle cx="480" cy="470" r="210" fill="${COLORS.night}"/>
    <path d="M130 1200 C160 860 800 860 830 1200 Z" fill="${COLORS.night}"/>
  </svg>`;
  return sharp(Buffer.from(svg)).png().toBuffer();
}

const listRows = (page: Page) => page.locator(".entries > li");
const rowTitles = (page: Page) => listRows(page).locator(".entry__title a");

async function openList(page: Page, label: string) {
  await page
    .getByRole("navigation", { name: "Content lists" })
    .getByRole("link", { name: label })
    .click();
  await expect(page.getByRole("heading", { level: 2, name: label })).toBeVisible();
  await expect(listRows(page).first()).toBeVisible();
}

test.describe("content editing", () => {
  test.use({ viewport: { width: 1440, height: 1000 } });

  test("a new portrait shows on /weare once saved, and restoring the earlier version brings the old one back", async ({
    page,
    editor,
    expectedErrors,
  }) => {
    expectedErrors.add(loadFailure(415));
    await signInToConsole(page, editor);
    await page
      .getByRole("navigation", { name: "Console" })
      .getByRole("link", { name: "Content" })
      .click();
    await openList(page, "Team");
    await expectNoAxeViolations(page);

    const member = (await rowTitles(page).last().textContent()) ?? "";
    await rowTitles(page).last().click();
    await expect(page.getByRole("heading", { level: 2, name: member })).toBeVisible();
    const preview = page.getByRole("img", { name: "The portrait the site shows" });
    const oldSrc = (await preview.getAttribute("src")) ?? "";

    // A text file called a picture is refused by its bytes, next to the field.
    const upload = page.getByLabel("Upload a new portrait");
    await upload.setInputFiles({
      name: "x.png",
      mimeType: "image/png",
      buffer: Buffer.from("not a picture"),
    });
    await expect(page.getByText(CONTENT_TEXTS.unsupportedType)).toBeVisible();
    await expect(upload).toHaveAttribute("aria-invalid", "true");
    await expectNoAxeViolations(page);

    await upload.setInputFiles({
      name: "new.png",
      mimeType: "image/png",
      buffer: await portraitPng(),
    });
    // The editor says what the crop to the portrait's frame keeps, then uploads.
    const crop = page.getByRole("group", { name: "Choose what the portrait keeps" });
    await crop.getByLabel(/^Focal point down/).fill("30");
    await expect(crop.getByText("Focal point down: 30 %")).toBeVisible();
    await expectNoAxeViolations(page);
    await crop.getByRole("button", { name: "Upload this crop" }).click();
    await expect(page.getByRole("status").filter({ hasText: "Uploaded." })).toBeVisible();
    await expect(crop).toBeHidden();
    await expect(preview).not.toHaveAttribute("src", oldSrc);
    const newSrc = (await preview.getAttribute("src")) ?? "";
    expect(newSrc).toMatch(/^\/images\/pictures\/[0-9a-f]{24}\.webp$/);
    await expect
      .poll(() => preview.evaluate((img: HTMLImageElement) => img.naturalWidth))
      .toBe(480);

    await page.getByRole("button", { name: "Publish", exact: true }).click();
    await expect(
      page.getByText(/^Published as version \d+\. The site shows it now\.$/),
    ).toBeVisible();
    await expectNoAxeViolations(page);

    const site = await page.context().newPage();
    await site.goto("/weare");
    // The photo's text alternative is empty (the name is the heading under it):
    // it is found by the slide that carries that heading.
    const portrait = site
      .locator('[aria-roledescription="slide"]')
      .filter({ has: site.getByRole("heading", { name: member, exact: true }) })
      .locator("img");
    await expect(portrait).toHaveAttribute("src", newSrc);
    const served = await site.request.get(newSrc);
    expect(served.headers()["content-type"]).toBe("image/webp");

    // The version before the upload, restored in one click.
    const versions = page.getByRole("region", { name: "Versions" });
    // The newest version, first: earlier runs of this test leave theirs below it.
    await expect(versions.locator(".version").first().getByText("Changed: Portrait")).toBeVisible();
    const earlier = versions.getByRole("button", { name: /^Restore version \d+$/ }).first();
    await earlier.click();
    await expect(versions.getByText(/^Version \d+ is restored as version \d+\./)).toBeVisible();
    await expect(preview).toHaveAttribute("src", oldSrc);
    await site.reload();
    await expect(portrait).toHaveAttribute("src", oldSrc);
    await expectNoAxeViolations(page);
  });

  test("capabilities move by the buttons and by the keyboard, and /wedo follows", async ({
    page,
    editor,
  }) => {
    await signInToConsole(page, editor, "/admin/content/capabilities");
    await expect(listRows(page)).not.toHaveCount(0);
    const original = await rowTitles(page).allTextContents();
    const [first, second] = original as [string, string];
    const last = original.at(-1) ?? "";
    const beforeLast = original.at(-2) ?? "";

    // Move up / Move down: the focus stays with the row that moved.
    const down = page.getByRole("button", { name: `Move “${first}” down` });
    await down.focus();
    await page.keyboard.press("Enter");
    await expect(
      page.getByRole("status").filter({ hasText: `Moved “${first}” to position 2` }),
    ).toBeVisible();
    await expect(down).toBeFocused();

    // The drag handle, by keyboard alone: Space, an arrow, Space.
    await page.getByRole("button", { name: `Drag to move “${last}”` }).focus();
    await page.keyboard.press("Space");
    // dnd-kit's live region says where the entry is after each step, so each
    // key waits for the last. The pick-up renders at once, but dnd-kit starts
    // listening for the arrows only in a timer it sets on the Space: a timer
    // the page sets after the pick-up has rendered runs after that one.
    const over = (position: number) =>
      page.getByText(`“${last}” is over position ${position} of ${original.length}`);
    await expect(over(original.length)).toBeAttached();
    await page.evaluate(() => new Promise((listening) => setTimeout(listening)));
    await page.keyboard.press("ArrowUp");
    await expect(over(original.length - 1)).toBeAttached();
    await page.keyboard.press("Space");
    await expect(
      page
        .getByRole("status")
        .filter({ hasText: `Moved “${last}” to position ${original.length - 1}` }),
    ).toBeVisible();

    const moved = [second, first, ...original.slice(2, -2), last, beforeLast];
    await expect(rowTitles(page)).toHaveText(moved);
    await expectNoAxeViolations(page);

    const site = await page.context().newPage();
    await site.goto("/wedo");
    await expect(site.locator("#capabilities .capability h3")).toHaveText(moved);

    // Put them back as they were, for the tests that read the capabilities.
    await page.getByRole("button", { name: `Move “${first}” up` }).click();
    await expect(
      page.getByRole("status").filter({ hasText: `Moved “${first}” to position 1` }),
    ).toBeVisible();
    await page.getByRole("button", { name: `Move “${last}” down` }).click();
    await expect(
      page
        .getByRole("status")
        .filter({ hasText: `Moved “${last}” to position ${original.length}` }),
    ).toBeVisible();
    await site.reload();
    await expect(site.locator("#capabilities .capability h3")).toHaveText(original);
  });

  test("publishing a second tab's draft of an older version is refused, and the typed text stays", async ({
    page,
    editor,
    expectedErrors,
  }) => {
    expectedErrors.add(loadFailure(409));
    const name = uniqueWord("Stale");
    await signInToConsole(page, editor, "/admin/content/ethos/new");

    // A hidden ethos card of its own: the site never shows it.
    await page.getByRole("button", { name: "Create ethos card" }).click();
    await expect(page.getByText("Enter a name.")).toBeVisible();
    await expectNoAxeViolations(page);
    await page.getByLabel("Name").fill(name);
    await page.getByLabel("Description").fill("The first description.");
    await page.getByLabel("Hidden from the site").check();
    await page.getByRole("button", { name: "Create ethos card" }).click();
    await expect(page.getByText(/^Created, and hidden: the site leaves/)).toBeVisible();
    const address = page.url();

    const second = await page.context().newPage();
    await second.goto(address);
    await expect(second.getByLabel("Description")).toHaveValue("The first description.");

    await page.getByLabel("Description").fill("Saved in the first tab.");
    await page.getByRole("button", { name: "Publish", exact: true }).click();
    await expect(page.getByText("Published as version 2.", { exact: false })).toBeVisible();

    // The second tab's typing is a draft of version 1: publishing it would
    // overwrite the first tab's, so it is refused, and the text is kept.
    await second.getByLabel("Description").fill("Typed in the second tab, on the old version.");
    await second.getByRole("button", { name: "Publish", exact: true }).click();
    await expect(second.getByRole("alert")).toContainText(DRAFT_TEXTS.conflict("ethos card", 1, 2));
    await expect(second.getByLabel("Description")).toHaveValue(
      "Typed in the second tab, on the old version.",
    );
    await expectNoAxeViolations(second);

    await second.getByRole("button", { name: "Discard draft" }).click();
    await alertDialog(second).getByRole("button", { name: "Discard draft" }).click();
    await expect(second.getByLabel("Description")).toHaveValue("Saved in the first tab.");
  });

  test.describe("at 375 px", () => {
    test.use({ viewport: { width: 375, height: 800 } });

    test("the list and a record's form fit the screen and pass axe", async ({ page, editor }) => {
      await signInToConsole(page, editor, "/admin/content/industries");
      await expect(listRows(page)).not.toHaveCount(0);
      await expectNoAxeViolations(page);
      const overflow = () =>
        page.evaluate(
          () => document.documentElement.scrollWidth - document.documentElement.clientWidth,
        );
      expect(await overflow()).toBeLessThanOrEqual(0);
      await rowTitles(page).first().click();
      await expect(page.getByRole("region", { name: "Versions" })).toBeVisible();
      await expectNoAxeViolations(page);
      expect(await overflow()).toBeLessThanOrEqual(0);
    });
  });
});

/** Calls the console's API as the signed-in page would, with its cross-site token. */
async function consoleCall<T>(page: Page, method: "post" | "put", url: string, data: object) {
  const cookies = await page.context().cookies();
  const token = cookies.find((cookie) => cookie.name === "XSRF-TOKEN")?.value ?? "";
  const response = await page.request[method](url, { headers: { "x-xsrf-token": token }, ...data });
  expect(response.ok(), await response.text()).toBe(true);
  return (await response.json()) as T;
}

/** A full-page shot from the top (the console's bar sticks to the top of the view). */
async function screenshot(page: Page, name: string, width: number) {
  await page.evaluate(() => window.scrollTo(0, 0));
  await page.screenshot({
    path: `docs/screenshots/admin/content-${name}-${width}.png`,
    fullPage: true,
  });
}

test.describe("screenshots @screenshots", () => {
  test("of a list, a record with its versions, and an upload, at 375 and 1440 px", async ({
    page,
    editor,
  }) => {
    await signInToConsole(page, editor, "/admin/content/team");
    // A hidden team member with two versions: the site never shows them.
    const { imagePath } = await consoleCall<{ imagePath: string }>(
      page,
      "post",
      `${MEDIA_API}?kind=portrait`,
      {
        multipart: {
          file: {
            name: "jordan.png",
            mimeType: "image/png",
            buffer: await portraitPng(COLORS.paperDeep),
          },
        },
      },
    );
    const fields = {
      fullname: "Jordan Blake",
      title: "Principal, Data Platforms",
      bio: "Jordan joins in the spring from a logistics group, where they ran the data platform.",
      imagePath,
    };
    const created = await consoleCall<Entry>(page, "post", CONTENT_PATHS.list("team"), {
      data: { fields, hidden: true },
    });
    const revised = {
      ...fields,
      bio: `${fields.bio} They lead the firm's work on streaming data.`,
    };
    const saved = await consoleCall<Entry>(page, "put", CONTENT_PATHS.entry("team", created.id), {
      data: { fields: revised, hidden: true, version: created.version },
    });
    // A draft of the next version, as an editor leaves one mid-way.
    await consoleCall(page, "put", DRAFT_PATHS.draft("team", created.id), {
      data: {
        fields: { ...revised, title: "Principal, Data Platforms and Streaming" },
        baseVersion: saved.version,
      },
    });
    // The upload's form is left with an empty field; leaving it is confirmed.
    page.on("dialog", (dialog) => void dialog.accept());

    for (const width of [375, 1440]) {
      await page.setViewportSize({ width, height: 900 });
      await page.goto("/admin/content/team");
      await expect(page.getByRole("link", { name: "Jordan Blake" })).toBeVisible();
      await screenshot(page, "list", width);

      await page.goto(`/admin/content/team/${created.id}`);
      await expect(page.getByText("Changed: Biography")).toBeVisible();
      await page.getByText("What it said").first().click();
      await screenshot(page, "edit", width);

      await page.reload();
      await page.getByLabel("Upload a new portrait").setInputFiles({
        name: "portrait.png",
        mimeType: "image/png",
        buffer: await portraitPng(),
      });
      await screenshot(page, "crop", width);
      await page.getByRole("button", { name: "Upload this crop" }).click();
      await expect(page.getByRole("status").filter({ hasText: "Uploaded." })).toBeVisible();
      await page.getByLabel("Biography").fill("");
      await page.getByRole("button", { name: "Publish", exact: true }).click();
      await expect(page.getByText("Enter a short biography.")).toBeVisible();
      await screenshot(page, "upload", width);
      // What was typed there is not put back into the next width's shots.
      await page.evaluate(() => window.localStorage.clear());
    }
  });
});

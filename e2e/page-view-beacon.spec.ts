/**
 * A page reached by a client-side navigation is counted through one beacon
 * to the site's own origin (ADR 051): the first page, counted where the
 * server sent it, sends none; each later page sends its path and query;
 * and nothing is stored in the browser for it. (A beacon from a browser
 * asking not to be tracked is answered and not counted:
 * src/server/features/audience/counting.test.ts.)
 */
import type { Request } from "@playwright/test";
import { open } from "./support/page.ts";
import { expect, type Page, test } from "./support/test.ts";

test.use({ viewport: { width: 1440, height: 900 } });

const BEACON_PATH = "/api/v1/page-view";

function beaconsOf(page: Page): Request[] {
  const sent: Request[] = [];
  page.on("request", (request) => {
    if (new URL(request.url()).pathname === BEACON_PATH) sent.push(request);
  });
  return sent;
}

test("a client-side navigation sends one beacon with the new path, the first page none", async ({
  page,
}) => {
  const sent = beaconsOf(page);
  await open(page, "/");
  const beacon = page.waitForRequest((request) => new URL(request.url()).pathname === BEACON_PATH);
  await page.locator("header").getByRole("link", { name: "Who We Are", exact: true }).click();
  await expect(page).toHaveURL(/\/weare$/);
  const request = await beacon;
  expect(request.method()).toBe("POST");
  expect(request.postData()).toBe("/weare");
  expect(new URL(request.url()).origin).toBe(new URL(page.url()).origin);
  expect((await request.response())?.status()).toBe(204);
  expect(sent).toHaveLength(1);
  // Nothing kept on the device for the counting: the tab's storage holds only
  // the visit's source for its forms (ADR 052), and the one cookie is the
  // cross-site token's.
  expect(await page.evaluate(() => localStorage.length)).toBe(0);
  expect(await page.evaluate(() => Object.keys(sessionStorage))).toEqual(["lead-source"]);
  const cookies = await page.context().cookies();
  expect(cookies.map((cookie) => cookie.name)).toEqual(["XSRF-TOKEN"]);
});

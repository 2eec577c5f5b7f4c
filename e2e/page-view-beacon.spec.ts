/**
 * A page reached by a client-side navigation is counted through one beacon
 * to the site's own origin (ADR 051): the first page, counted where the
 * server sent it, sends none; each later page sends its path and query;
 * nothing is stored in the browser for it; and a browser sending Global
 * Privacy Control sends nothing at all.
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
  // Nothing kept on the device for the counting: no storage, and only the cross-site token's cookie.
  expect(await page.evaluate(() => localStorage.length + sessionStorage.length)).toBe(0);
  const cookies = await page.context().cookies();
  expect(cookies.map((cookie) => cookie.name)).toEqual(["XSRF-TOKEN"]);
});

test("a browser sending Global Privacy Control sends no beacon", async ({ page }) => {
  await page.addInitScript(() => {
    Object.defineProperty(navigator, "globalPrivacyControl", { value: true });
  });
  const sent = beaconsOf(page);
  await open(page, "/");
  await page.locator("header").getByRole("link", { name: "Who We Are", exact: true }).click();
  await expect(page).toHaveURL(/\/weare$/);
  await expect(page.getByRole("heading", { level: 1, name: "Who We Are" })).toBeFocused();
  await page.locator("header").getByRole("link", { name: "What We Do", exact: true }).click();
  await expect(page.getByRole("heading", { level: 1, name: "What We Do" })).toBeFocused();
  expect(sent).toHaveLength(0);
});

/** Request interception helpers: make the API answer what a test needs. */
import type { Page, Route } from "@playwright/test";

export type Answer =
  | { status: number; body?: unknown; delayMs?: number }
  | { fail: true; delayMs?: number };

async function answer(route: Route, how: Answer) {
  if (how.delayMs) await new Promise((resolve) => setTimeout(resolve, how.delayMs));
  if ("fail" in how) return route.abort("failed");
  return route.fulfill({
    status: how.status,
    contentType: "application/json",
    body: JSON.stringify(how.body ?? {}),
  });
}

/** Answers every request whose URL matches `pattern` (a glob or RegExp) with `how`. */
export async function mockApi(page: Page, pattern: string | RegExp, how: Answer): Promise<void> {
  await page.route(pattern, (route) => answer(route, how));
}

/** Delays the real answer to matching requests by `delayMs`. */
export async function delayApi(
  page: Page,
  pattern: string | RegExp,
  delayMs: number,
): Promise<void> {
  await page.route(pattern, async (route) => {
    await new Promise((resolve) => setTimeout(resolve, delayMs));
    await route.continue();
  });
}

/** Request interception helpers: make the API answer what a test needs. */
import type { Page, Request, Route } from "@playwright/test";

export type Answer = { status: number; body?: unknown } | { fail: true };

async function answer(route: Route, how: Answer) {
  if ("fail" in how) return route.abort("failed");
  return route.fulfill({
    status: how.status,
    contentType: "application/json",
    body: JSON.stringify(how.body ?? {}),
  });
}

/**
 * Answers every request whose URL matches `pattern` (a glob or RegExp) with
 * `how`. Returns the list of the requests it has answered so far, which grows
 * as they arrive.
 */
export async function mockApi(
  page: Page,
  pattern: string | RegExp,
  how: Answer,
): Promise<Request[]> {
  const requests: Request[] = [];
  await page.route(pattern, (route) => {
    requests.push(route.request());
    return answer(route, how);
  });
  return requests;
}

/**
 * Holds every request matching `pattern` until `release()` is called, then
 * answers it with `how`, or lets the real server answer it if `how` is not given.
 */
export async function holdApi(
  page: Page,
  pattern: string | RegExp,
  how?: Answer,
): Promise<{ release: () => void; requests: Request[] }> {
  let release: () => void = () => {};
  const released = new Promise<void>((resolve) => {
    release = resolve;
  });
  const requests: Request[] = [];
  await page.route(pattern, async (route) => {
    requests.push(route.request());
    await released;
    await (how ? answer(route, how) : route.continue());
  });
  return { release: () => release(), requests };
}

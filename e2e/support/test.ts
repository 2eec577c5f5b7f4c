/**
 * The `test` and `expect` every browser test imports. Any uncaught page error
 * or console error fails the test, so a hydration error (React #418) or a
 * broken request cannot pass unnoticed. A test that provokes an error on
 * purpose declares it, narrowly, with `expectedErrors.add(...)`: each declared
 * error must then happen exactly as often as declared, and nothing else may.
 */
import { test as base, type ConsoleMessage, expect, type Page } from "@playwright/test";

export type { Locator, Page } from "@playwright/test";
export { expect };

/** One console error or uncaught page error, as the fixture saw it. */
export interface PageError {
  kind: "console.error" | "pageerror";
  text: string;
  /** The source of a console error (for a failed request, the request's URL). */
  url: string;
}

interface Declaration {
  text: RegExp;
  url: RegExp | undefined;
  times: number;
}

/** The errors a test provokes on purpose. */
export class ExpectedErrors {
  readonly declared: Declaration[] = [];

  /**
   * Declares that this test provokes, exactly `times` times (default 1), an
   * error whose text matches `text` and, if `url` is given, whose source URL
   * matches `url`.
   */
  add(text: RegExp, { url, times = 1 }: { url?: RegExp; times?: number } = {}): void {
    this.declared.push({ text, url, times });
  }
}

/**
 * What Chromium logs when a request is answered with an HTTP error `status`,
 * or gets no answer at all (`"failed"`: aborted, network down).
 */
export function loadFailure(status: number | "failed"): RegExp {
  return status === "failed"
    ? /^Failed to load resource: net::ERR_FAILED$/
    : new RegExp(`^Failed to load resource: the server responded with a status of ${status} \\(`);
}

function describe(error: PageError): string {
  return `${error.kind}: ${error.text}${error.url ? ` [${error.url}]` : ""}`;
}

/** Matches the errors seen against the declarations: what was not declared, what did not happen. */
function checkErrors(seen: PageError[], declared: Declaration[]): string[] {
  const counts = declared.map(() => 0);
  const unexpected = seen.filter((error) => {
    const index = declared.findIndex(
      ({ text, url }) => text.test(error.text) && (!url || url.test(error.url)),
    );
    if (index === -1) return true;
    counts[index] = (counts[index] ?? 0) + 1;
    return false;
  });
  return [
    ...unexpected.map((error) => `unexpected ${describe(error)}`),
    ...declared.flatMap(({ text, url, times }, index) =>
      counts[index] === times
        ? []
        : [`declared ${times} time(s), seen ${counts[index]}: ${text}${url ? ` [${url}]` : ""}`],
    ),
  ];
}

export const test = base.extend<{ expectedErrors: ExpectedErrors; failOnPageErrors: undefined }>({
  // biome-ignore lint/correctness/noEmptyPattern: Playwright reads a fixture's dependencies from this pattern
  expectedErrors: async ({}, use) => {
    await use(new ExpectedErrors());
  },

  failOnPageErrors: [
    async ({ page, context, expectedErrors }, use) => {
      const seen: PageError[] = [];
      const watch = (target: Page) => {
        target.on("console", (message: ConsoleMessage) => {
          if (message.type() !== "error") return;
          seen.push({ kind: "console.error", text: message.text(), url: message.location().url });
        });
        target.on("pageerror", (error) => {
          seen.push({ kind: "pageerror", text: `${error.name}: ${error.message}`, url: "" });
        });
      };
      watch(page);
      context.on("page", watch);

      await use(undefined);

      expect(
        checkErrors(seen, expectedErrors.declared),
        "console errors and uncaught page errors of this test",
      ).toEqual([]);
    },
    { auto: true },
  ],
});

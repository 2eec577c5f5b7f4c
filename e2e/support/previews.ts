/**
 * The console's preview frames are served with a sandbox that allows no
 * script at all. Each time Playwright's instrumentation tries to run in one,
 * Chromium logs a refusal (a person's browser runs none there, so logs
 * nothing): the `previewNotices` fixture declares exactly as many as
 * happened, so any other error still fails the test.
 */
import { test as base, type Page } from "./test.ts";

export const SANDBOX_NOTICE =
  /^Blocked script execution in '[^']+\/api\/admin\/newsletter\/\d+\/preview\/(?:email|web)(?:\?as=\d+)?' because the document's frame is sandboxed and the 'allow-scripts' permission is not set\.$/;

export const test = base.extend<{ previewNotices: undefined }>({
  previewNotices: [
    async ({ page, expectedErrors }, use) => {
      let notices = 0;
      const watch = (watched: Page) =>
        watched.on("console", (message) => {
          if (message.type() === "error" && SANDBOX_NOTICE.test(message.text())) notices += 1;
        });
      watch(page);
      page.context().on("page", watch);
      await use(undefined);
      if (notices > 0) expectedErrors.add(SANDBOX_NOTICE, { times: notices });
    },
    { auto: true },
  ],
});

/** A preview frame's document, found by the frame's title. */
export const previewFrame = (page: Page, title: string) =>
  page.getByTitle(title, { exact: true }).contentFrame();

/**
 * The content-edit specs' server, one for each worker that runs them. Editing
 * the team, the capabilities or the site facts changes what public pages show,
 * so these specs run on a server no page test reads, and a test repeated in
 * two workers at once edits two databases. The editor is written into the
 * database before the server starts.
 */
import type { ConsoleAccount } from "./console.ts";
import { onPreparedServer, type PreparedServer } from "./prepared-database.ts";
import { test as base } from "./test.ts";

export { expect, loadFailure, type Page } from "./test.ts";

export const test = base.extend<{ editor: ConsoleAccount }, { contentServer: PreparedServer }>({
  contentServer: [
    // biome-ignore lint/correctness/noEmptyPattern: Playwright reads a fixture's dependencies from this pattern
    async ({}, use, { workerIndex }) => {
      const label = `content-${workerIndex}`;
      const editor = { role: "editor", email: `${label}@firm.example`, name: "Editor" } as const;
      await onPreparedServer(label, editor, async () => {}, use);
    },
    { scope: "worker", timeout: 90_000 },
  ],
  baseURL: async ({ contentServer }, use) => use(contentServer.origin),
  editor: async ({ contentServer }, use) => use(contentServer.account),
});

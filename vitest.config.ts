import { defineConfig } from "vitest/config";

export default defineConfig({
  test: {
    include: ["src/**/*.test.ts", "test/**/*.test.ts"],
    setupFiles: ["test/support/announce-engines.ts"],
    // Vitest's default, one file fewer than the cores, runs one file at a time
    // on two cores, while most files spend their time waiting on a server
    // process, a database or a socket. Three at once kept both cores busy.
    maxWorkers: 3,
    testTimeout: 30_000,
    hookTimeout: 30_000,
    // A poll waits on a server, a send or a mailbox, which a busy machine
    // slows: its default second failed sends that were merely late. A poll
    // still ends at its first success; only a real failure waits this long.
    expect: { poll: { timeout: 15_000 } },
  },
});

/**
 * The env file is read before anything else of the server loads: React and
 * react-dom each pick their development or production build from NODE_ENV
 * when first loaded, and a server that read NODE_ENV=production from the
 * file only after loading React rendered no page at all.
 */
import { mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { describe, expect, it } from "vitest";
import { startServer } from "../support/server-process.ts";

/** A server build rendered by React, as the real one is. */
const REACT_BUILD = resolve("test/support/react-server-build.mjs");

describe("the env file", () => {
  it("sets NODE_ENV=production for the whole server: its pages render and it is ready", async () => {
    const dir = mkdtempSync(join(tmpdir(), "env-file-"));
    const envFile = join(dir, "site.env");
    writeFileSync(envFile, "NODE_ENV=production\nPUBLIC_ORIGIN=https://www.firm.example\n", {
      mode: 0o600,
    });
    const server = await startServer({
      // The test runner's own NODE_ENV would win over the file's.
      NODE_ENV: undefined,
      ENV_FILE: envFile,
      SERVER_BUILD: REACT_BUILD,
      SQLITE_FILE: join(dir, "site.db"),
    });
    try {
      const home = await fetch(`${server.origin}/`);
      expect(home.status).toBe(200);
      expect(await home.text()).toContain("<h1>Page /</h1>");
      expect((await fetch(`${server.origin}/readyz`)).status).toBe(200);
    } finally {
      server.child.kill("SIGTERM");
      await server.exited;
    }
  }, 60_000);
});

/**
 * Runs the built site (`npm run build`) on a local port with a fresh SQLite
 * database, for the scripts that look at it: screenshots and benchmarks.
 */
import { spawn } from "node:child_process";
import { mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";

export interface BuiltSite {
  origin: string;
  stop(): void;
}

/** `env` adds to (or overrides) the server's environment, e.g. a setting to compare with and without. */
export async function startBuiltSite(
  port: number,
  env: Record<string, string> = {},
): Promise<BuiltSite> {
  const origin = `http://127.0.0.1:${port}`;
  const server = spawn(process.execPath, ["build/node/src/server/main.js"], {
    env: {
      ...process.env,
      PORT: String(port),
      HOST: "127.0.0.1",
      LOG_LEVEL: "warn",
      SQLITE_FILE: join(mkdtempSync(join(tmpdir(), "built-site-")), "site.db"),
      ...env,
    },
    stdio: "inherit",
  });
  const stop = () => server.kill("SIGTERM");
  for (let attempt = 0; attempt < 100; attempt += 1) {
    try {
      if ((await fetch(`${origin}/readyz`)).ok) return { origin, stop };
    } catch {
      // not listening yet
    }
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  stop();
  throw new Error(`the built site did not start on ${origin}`);
}

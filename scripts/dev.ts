/**
 * `npm run dev`: the site with hot reload on http://localhost:3000 (the real
 * server with pages from Vite, dev-server.ts, restarted when server code
 * changes) and the console's Vite dev server on http://localhost:5174/admin/,
 * which sends /api to the site. Ctrl-C stops both. The env file is read
 * here too, so a PORT it sets reaches both; the children find its values in
 * their environment, where they win over the file as the process's own would.
 */
import { type ChildProcess, spawn } from "node:child_process";
import { ConfigError, readEnvFile } from "../src/server/platform/config.ts";

try {
  readEnvFile();
} catch (error) {
  if (!(error instanceof ConfigError)) throw error;
  console.error(error.message);
  process.exit(1);
}
const port = process.env.PORT ?? "3000";
const children: ChildProcess[] = [
  spawn("npx", ["tsx", "watch", "--exclude", "src/web/**", "scripts/dev-server.ts"], {
    stdio: "inherit",
    env: { ...process.env, PORT: port },
  }),
  spawn("npx", ["vite", "-c", "vite.admin.config.ts", "--port", "5174"], {
    stdio: "inherit",
    env: { ...process.env, API_PORT: port },
  }),
];

function stopAll(code: number) {
  for (const child of children) child.kill("SIGTERM");
  process.exitCode = code;
}

for (const child of children) child.on("exit", (code) => stopAll(code ?? 0));
process.on("SIGINT", () => stopAll(0));
process.on("SIGTERM", () => stopAll(0));

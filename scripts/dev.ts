/**
 * `npm run dev`: the API with reload on change, and Vite's dev servers with hot
 * reload for the site (http://localhost:5173) and the console
 * (http://localhost:5174/admin/), which proxy /api to it. Ctrl-C stops all three.
 */
import { type ChildProcess, spawn } from "node:child_process";

const apiPort = process.env.API_PORT ?? "3001";
const children: ChildProcess[] = [
  spawn("npx", ["tsx", "watch", "src/server/main.ts"], {
    stdio: "inherit",
    env: { ...process.env, PORT: apiPort, HOST: "127.0.0.1" },
  }),
  spawn("npx", ["react-router", "dev"], {
    stdio: "inherit",
    env: { ...process.env, API_PORT: apiPort },
  }),
  spawn("npx", ["vite", "-c", "vite.admin.config.ts", "--port", "5174"], {
    stdio: "inherit",
    env: { ...process.env, API_PORT: apiPort },
  }),
];

function stopAll(code: number) {
  for (const child of children) child.kill("SIGTERM");
  process.exitCode = code;
}

for (const child of children) child.on("exit", (code) => stopAll(code ?? 0));
process.on("SIGINT", () => stopAll(0));
process.on("SIGTERM", () => stopAll(0));

/**
 * `npm run bench:restart`: how soon a restarted site serves its first page.
 * Each round starts `npm start` (the build current, the database migrated
 * and seeded by a first start that is not counted) and times the first 200
 * answer to `GET /`, then stops it with SIGTERM; beside it, in alternating
 * rounds, a bare Fastify process answering "ok" is timed the same way, the
 * floor of starting Node and listening on this machine. Target: < 3 s.
 */
import { type ChildProcess, spawn } from "node:child_process";
import { once } from "node:events";
import { mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { buildState } from "../scripts/build-state.mjs";

const ROUNDS = Number(process.env.ROUNDS ?? 5);
const PORT = 4380;
const origin = `http://127.0.0.1:${PORT}`;
const POLL_MS = 10;

if (buildState() !== "current") {
  console.error("The build is missing or older than the sources: run npm run build first.");
  process.exit(1);
}

const env = {
  ...process.env,
  PORT: String(PORT),
  HOST: "127.0.0.1",
  LOG_LEVEL: "warn",
  SQLITE_FILE: join(mkdtempSync(join(tmpdir(), "restart-")), "site.db"),
};

const BARE = `import Fastify from "fastify";
const app = Fastify();
app.get("/", async () => "ok");
await app.listen({ port: ${PORT}, host: "127.0.0.1" });`;

async function firstAnswer(start: () => ChildProcess): Promise<number> {
  const began = performance.now();
  const child = start();
  const exited = once(child, "exit");
  try {
    for (;;) {
      try {
        const response = await fetch(`${origin}/`);
        if (response.ok) return performance.now() - began;
      } catch {
        // not listening yet
      }
      await new Promise((resolve) => setTimeout(resolve, POLL_MS));
    }
  } finally {
    child.kill("SIGTERM");
    await exited;
  }
}

const site = () => spawn("npm", ["start"], { env, stdio: "ignore" });
const bare = () =>
  spawn(process.execPath, ["--input-type=module", "-e", BARE], { env, stdio: "ignore" });

const median = (values: number[]) => [...values].sort((a, b) => a - b)[values.length >> 1] ?? 0;

console.error("first start (migrates and seeds; not counted)");
await firstAnswer(site);
const ours: number[] = [];
const floor: number[] = [];
for (let round = 1; round <= ROUNDS; round += 1) {
  ours.push(await firstAnswer(site));
  floor.push(await firstAnswer(bare));
  console.error(
    `round ${round}: site ${Math.round(ours.at(-1) ?? 0)} ms, bare ${Math.round(floor.at(-1) ?? 0)} ms`,
  );
}
const ms = (value: number) => `${(value / 1000).toFixed(2)} s`;
console.log(`${ROUNDS} alternating rounds; time from spawn to the first 200 answer to GET /.\n`);
console.log("| | median | fastest | slowest |");
console.log("|---|---|---|---|");
console.log(
  `| \`npm start\`, build current | ${ms(median(ours))} | ${ms(Math.min(...ours))} | ${ms(Math.max(...ours))} |`,
);
console.log(
  `| bare Fastify process | ${ms(median(floor))} | ${ms(Math.min(...floor))} | ${ms(Math.max(...floor))} |`,
);

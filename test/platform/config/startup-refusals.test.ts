/**
 * Settings that would run a site wrongly stop the process at start, with one
 * line naming the variable and what to write instead.
 */
import { once } from "node:events";
import { describe, expect, it } from "vitest";
import { runServer } from "../../support/server-process.ts";

/**
 * A server that starts anyway is stopped after this, so the test fails
 * without leaving it running: within the test's own time-out, and long
 * enough for a refusal on a machine whose cores are busy with other tests.
 */
const START_LIMIT_MS = 25_000;

async function refusal(env: Record<string, string>) {
  const child = runServer(env);
  let stderr = "";
  child.stderr?.on("data", (chunk) => {
    stderr += String(chunk);
  });
  const stop = setTimeout(() => child.kill("SIGKILL"), START_LIMIT_MS);
  const [code] = await once(child, "exit");
  clearTimeout(stop);
  return { code, lines: stderr.trim().split("\n") };
}

describe("start-up refusals", () => {
  it("refuses NODE_ENV=production without PUBLIC_ORIGIN, which every e-mail's links use", async () => {
    const { code, lines } = await refusal({ NODE_ENV: "production", PUBLIC_ORIGIN: "" });
    expect(code).toBe(1);
    expect(lines).toEqual([
      expect.stringMatching(
        /^Invalid environment variable PUBLIC_ORIGIN="": must be set when NODE_ENV=production/,
      ),
    ]);
  });

  it.each([
    [
      { DATABSE_URL: "postgres://db.internal/site" },
      /^Unknown environment variable DATABSE_URL: did you mean DATABASE_URL\?/,
    ],
    [
      { NODE_ENV: "prod" },
      /^Invalid environment variable NODE_ENV="prod": must be development, production or test/,
    ],
    [
      { DATABASE_URL: "postgres://site@db.internal:99999/site" },
      /^Invalid environment variable DATABASE_URL="postgres:\/\/\*\*\*@db\.internal:99999\/site": its port "99999" is not a number from 1 to 65535$/,
    ],
    [
      { MAIL_FROM: "Meridian Consulting Group" },
      /^Invalid environment variable MAIL_FROM="Meridian Consulting Group": has no address;/,
    ],
  ])("refuses %j, naming what to write instead", async (env, line) => {
    const { code, lines } = await refusal(env);
    expect(code).toBe(1);
    expect(lines).toEqual([expect.stringMatching(line)]);
  });

  it("refuses TRUST_PROXY=true, saying to write a hop count or the proxies' addresses", async () => {
    const { code, lines } = await refusal({ TRUST_PROXY: "true" });
    expect(code).toBe(1);
    expect(lines).toEqual([
      expect.stringMatching(
        /^Invalid environment variable TRUST_PROXY="true": .*number of proxies .*\(e\.g\. 1\) or their addresses/,
      ),
    ]);
  });
});

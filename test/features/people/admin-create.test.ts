/**
 * `npm run admin:create`: makes the first owner, prints a
 * one-time link and queues the same link as mail; the link sets the password,
 * once. Run again, it finds the account and prints a fresh link.
 */
import { spawn } from "node:child_process";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { AUTH_PATHS, SET_PASSWORD_PAGE } from "../../../src/shared/admin/auth.ts";
import { startApp, type TestApp } from "../../support/app.ts";
import { childOutput } from "../../support/child-output.ts";
import { anonymous, createAccount, signIn } from "../../support/console.ts";
import { SQLITE_ONLY } from "../../support/engines.ts";
import { nodeArgs } from "../../support/entry.ts";
import { unwrapped } from "../../support/mail-text.ts";

function adminCreate(env: Record<string, string>, ...args: string[]) {
  return childOutput(
    spawn(process.execPath, [...nodeArgs("src/server/cli/admin.ts"), "create", ...args], {
      env: { ...process.env, ...env },
      stdio: ["ignore", "pipe", "pipe"],
    }),
  );
}

const LINK = new RegExp(`https?://[^\\s]+${SET_PASSWORD_PAGE}#token=([A-Za-z0-9_-]{43})`);

describe.each(SQLITE_ONLY)("admin:create on $engine", (engine) => {
  let t: TestApp;
  let env: Record<string, string>;
  // Each test has a database of its own: the first owner is made where there is no account yet.
  beforeEach(async () => {
    t = await startApp(engine);
    env = {
      SQLITE_FILE: t.config.SQLITE_FILE,
      ...(t.config.DATABASE_URL ? { DATABASE_URL: t.config.DATABASE_URL } : {}),
      PUBLIC_ORIGIN: "https://www.firm.example",
    };
  });
  afterEach(() => t.close());

  it("makes the first owner, whose printed link sets the password once", async () => {
    const run = await adminCreate(env, "--email", "First@Firm.example", "--name", "Ada Owner");
    expect(run.code, run.stderr).toBe(0);
    expect(run.stdout).toContain("Created owner first@firm.example.");
    const token = LINK.exec(run.stdout)?.[1];
    expect(run.stdout).toContain(`https://www.firm.example${SET_PASSWORD_PAGE}#token=`);
    expect(token).toBeDefined();

    const queued = await t.database.db
      .selectFrom("outbox")
      .select(["kind", "message"])
      .where("kind", "=", "account-invite")
      .execute();
    expect(queued).toHaveLength(1);
    const invitation = JSON.parse(queued[0]?.message ?? "{}");
    expect(invitation.text).toContain(`#token=${token}`);
    // No one is signed in on the command line, so the mail names no person as the inviter.
    expect(invitation.subject).toBe("You are invited to the Meridian website console");
    expect(unwrapped(invitation.text)).toContain(
      "The site's administrator invited you to the console of Meridian Consulting Group's website, as an owner.",
    );

    const client = await anonymous(t.app);
    const set = await client.request("POST", AUTH_PATHS.password, {
      token,
      password: "the first owner's passphrase",
    });
    expect(set.statusCode).toBe(200);
    const owner = await signIn(t.app, "first@firm.example", "the first owner's passphrase");
    expect((await owner.request("GET", AUTH_PATHS.session)).json()).toMatchObject({
      me: { email: "first@firm.example", role: "owner", name: "Ada Owner" },
    });
    const again = await client.request("POST", AUTH_PATHS.password, {
      token,
      password: "someone else's passphrase",
    });
    expect(again.statusCode).toBe(400);
  });

  it("prints a fresh password link for an existing account instead of a second account", async () => {
    await createAccount(t.database, "owner", "first@firm.example");
    const run = await adminCreate(env, "--email", "first@firm.example");
    expect(run.code, run.stderr).toBe(0);
    expect(run.stdout).toContain("first@firm.example already has an account (owner).");
    expect(LINK.test(run.stdout)).toBe(true);
    const owners = await t.database.db.selectFrom("users").select("id").execute();
    expect(owners).toHaveLength(1);
  });

  it("revokes the first run's link once the second run's has set the password", async () => {
    const runs = [
      await adminCreate(env, "--email", "twice@firm.example"),
      await adminCreate(env, "--email", "twice@firm.example"),
    ];
    const [first, second] = runs.map((run) => LINK.exec(run.stdout)?.[1]);
    expect(first).toBeDefined();
    expect(second).toBeDefined();
    const client = await anonymous(t.app);
    const set = await client.request("POST", AUTH_PATHS.password, {
      token: second,
      password: "the owner's chosen passphrase",
    });
    expect(set.statusCode).toBe(200);
    const late = await client.request("POST", AUTH_PATHS.password, {
      token: first,
      password: "an attacker's passphrase",
    });
    expect(late.statusCode).toBe(400);
  });

  it("refuses a missing or malformed address with its usage line", async () => {
    const run = await adminCreate(env, "--email", "not-an-address");
    expect(run.code).toBe(1);
    expect(run.stderr).toContain("Usage: npm run admin:create -- --email you@firm.example");
  });
});

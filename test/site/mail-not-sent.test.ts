/**
 * Whether mail leaves the server reaches the console in the answers every
 * screen already loads, on both engines: with no SMTP_URL, who is signed
 * in learns that mail only goes to the mail folder (owners, and only they,
 * its path) and Sending health says its figures are of that folder; with a
 * mail server set, neither says so.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { AUTH_PATHS } from "../../src/shared/admin/auth.ts";
import { SENDING_HEALTH_PATH } from "../../src/shared/admin/sending-health.ts";
import { openSession, startApp, type TestApp } from "../support/app.ts";
import { createAccount, signIn, TEST_PASSWORD } from "../support/console.ts";
import { SQLITE_ONLY } from "../support/engines.ts";
import { mailTo } from "../support/mail-env.ts";
import { startSmtp, type TestSmtp } from "../support/smtp.ts";

async function peopleOf(t: TestApp) {
  await createAccount(t.database, "owner");
  await createAccount(t.database, "editor");
  await createAccount(t.database, "viewer");
  return {
    owner: await signIn(t.app, "owner@firm.example"),
    editor: await signIn(t.app, "editor@firm.example"),
    viewer: await signIn(t.app, "viewer@firm.example"),
  };
}

describe.each(SQLITE_ONLY)("mail only written to the mail folder, on $engine", (engine) => {
  let smtp: TestSmtp;
  beforeAll(async () => {
    smtp = await startSmtp();
  });
  afterAll(async () => {
    await smtp.close();
  });

  it("tells everyone signed in when no mail server is set, and owners alone the folder", async () => {
    const t = await startApp(engine);
    try {
      const { owner, editor, viewer } = await peopleOf(t);
      const sessionOf = async (client: typeof owner) =>
        (await client.request("GET", AUTH_PATHS.session)).json().me;
      expect((await sessionOf(owner)).mailNotSent).toEqual({ folder: t.config.MAILBOX_DIR });
      expect((await sessionOf(editor)).mailNotSent).toEqual({ folder: null });
      expect((await sessionOf(viewer)).mailNotSent).toEqual({ folder: null });
      expect(JSON.stringify(await sessionOf(editor))).not.toContain(t.config.MAILBOX_DIR);

      // The sign-in's own answer says it too: the console shows it without asking again.
      const xsrf = await openSession(t.app);
      const signedIn = await t.app.inject({
        method: "POST",
        url: AUTH_PATHS.session,
        headers: { cookie: xsrf.cookie, "x-xsrf-token": xsrf.token },
        payload: { email: "viewer@firm.example", password: TEST_PASSWORD },
      });
      expect(signedIn.json().mailNotSent).toEqual({ folder: null });

      const health = await owner.request("GET", SENDING_HEALTH_PATH);
      expect(health.statusCode).toBe(200);
      expect(health.json().mailOnlyToFolder).toBe(true);
    } finally {
      await t.close();
    }
  }, 30_000);

  it("says nothing of the kind once SMTP_URL is set", async () => {
    const t = await startApp(engine, mailTo(smtp.url));
    try {
      const { owner, viewer } = await peopleOf(t);
      expect((await owner.request("GET", AUTH_PATHS.session)).json().me.mailNotSent).toBeNull();
      expect((await viewer.request("GET", AUTH_PATHS.session)).json().me.mailNotSent).toBeNull();
      expect((await owner.request("GET", SENDING_HEALTH_PATH)).json().mailOnlyToFolder).toBe(false);
    } finally {
      await t.close();
    }
  }, 30_000);
});

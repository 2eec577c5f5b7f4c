/**
 * The headers receivers read on the site's own mail, as it arrives at a real
 * SMTP server: the subscription's confirmation and welcome name the Insight
 * list as its newsletter copies do (List-Id), and mail the site writes by
 * itself, inquiry notifications and console password links, says so
 * (Auto-Submitted), so automatic replies leave it alone.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { AUTH_PATHS } from "../../../src/shared/admin/auth.ts";
import { PEOPLE_PATHS } from "../../../src/shared/admin/people.ts";
import { API_PATHS, serverPath } from "../../../src/shared/api-paths.ts";
import { openSession, post, type Session, startApp, type TestApp } from "../../support/app.ts";
import { anonymous, createAccount, signIn } from "../../support/console.ts";
import { SQLITE_ONLY } from "../../support/engines.ts";
import { VALID_INQUIRY } from "../../support/fixtures.ts";
import { mailTo } from "../../support/mail-env.ts";
import { header, type ReceivedMail, startSmtp, type TestSmtp } from "../../support/smtp.ts";

const ORIGIN = "https://www.firm.example";
/** The List-Id the newsletter's copies carry for this origin (test/features/newsletter/send.test.ts). */
const INSIGHT_LIST_ID = "Insight <insight.www.firm.example>";
const INQUIRY_TO = "inbox@firm.example";

describe.each(SQLITE_ONLY)("mail headers on $engine", (engine) => {
  let smtp: TestSmtp;
  let t: TestApp;
  let session: Session;

  beforeAll(async () => {
    smtp = await startSmtp();
    t = await startApp(
      engine,
      mailTo(smtp.url, {
        PUBLIC_ORIGIN: ORIGIN,
        INQUIRY_TO,
        NEWSLETTER_DOUBLE_OPT_IN: "true",
      }),
    );
    session = await openSession(t.app);
    await createAccount(t.database, "owner", "owner@firm.example");
  });
  afterAll(async () => {
    await t.close();
    await smtp.close();
  });

  /** The mail to `address` whose subject starts with `subject`, once it has arrived. */
  async function arrivedMail(address: string, subject: string): Promise<ReceivedMail> {
    const arrived = () =>
      smtp.received.find(
        (mail) => mail.recipients.includes(address) && mail.parsed.subject?.startsWith(subject),
      );
    await expect.poll(arrived, { timeout: 15_000 }).toBeDefined();
    return arrived() as ReceivedMail;
  }

  /** The token of the confirmation link in a mail's text. */
  function confirmToken(mail: ReceivedMail): string | null {
    const link = /https:\/\/\S+\/subscribe\/confirm\?[^\s\]]+/.exec(mail.parsed.text ?? "")?.[0];
    return link ? new URL(link).searchParams.get("token") : null;
  }

  it("names the Insight list on the confirmation and on the welcome that follows it", async () => {
    const email = "reader@list-id.example";
    const subscribed = await post(
      t.app,
      session,
      `${serverPath(API_PATHS.subscribe)}?emailId=${encodeURIComponent(email)}`,
    );
    expect(subscribed.statusCode).toBe(201);
    const confirmation = await arrivedMail(email, "Please confirm your subscription");
    expect(header(confirmation, "list-id")).toBe(INSIGHT_LIST_ID);

    const confirmed = await post(t.app, session, serverPath(API_PATHS.confirmSubscription), {
      token: confirmToken(confirmation),
    });
    expect(confirmed.statusCode).toBe(200);
    const welcome = await arrivedMail(email, "Welcome to Insight");
    expect(header(welcome, "list-id")).toBe(INSIGHT_LIST_ID);
  });

  it("marks the firm's inquiry notification as written by the site", async () => {
    const sent = await post(t.app, session, serverPath(API_PATHS.sendComment), VALID_INQUIRY);
    expect(sent.statusCode).toBe(200);
    const notification = await arrivedMail(INQUIRY_TO, "New inquiry");
    expect(header(notification, "auto-submitted")).toBe("auto-generated");
  });

  it("marks a console invitation as written by the site", async () => {
    const owner = await signIn(t.app, "owner@firm.example");
    const invited = await owner.request("POST", PEOPLE_PATHS.people, {
      email: "newcomer@firm.example",
      name: "Someone New",
      role: "editor",
    });
    expect(invited.statusCode).toBe(201);
    // The inviter is named in the subject: the owner's account, as createAccount names it.
    const invitation = await arrivedMail("newcomer@firm.example", "The owner invited you");
    expect(header(invitation, "auto-submitted")).toBe("auto-generated");
  });

  it("marks a password reset link as written by the site", async () => {
    await createAccount(t.database, "viewer", "forgetful@firm.example");
    const client = await anonymous(t.app);
    const asked = await client.request("POST", AUTH_PATHS.passwordReset, {
      email: "forgetful@firm.example",
    });
    expect(asked.statusCode).toBe(202);
    const reset = await arrivedMail("forgetful@firm.example", "Set a new password");
    expect(header(reset, "auto-submitted")).toBe("auto-generated");
  });
});

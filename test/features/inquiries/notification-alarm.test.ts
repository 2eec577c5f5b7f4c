/**
 * An inquiry's notification to the firm cannot fail unseen: the inbox's list
 * and detail read `notified` ("pending", "sent", "failed") from the
 * notification's outbox row and any hard bounce reported for it, and when the
 * outbox gives up on it (refused for good, or out of attempts) every owner
 * and ALERT_TO get one alarm through a second SMTP server (ALERT_SMTP_URL),
 * naming the inquiry by number, name and company only. Real SMTP servers, on
 * both engines.
 */
import { afterEach, describe, expect, it } from "vitest";
import { recordReport } from "../../../src/server/features/deliverability/index.ts";
import { notificationAlarm } from "../../../src/server/features/inquiries/index.ts";
import {
  INQUIRY_PATHS,
  type InquiryDetail,
  type InquiryPage,
  inquiryPath,
} from "../../../src/shared/admin/inquiries.ts";
import { openSession, post, startApp, type TestApp } from "../../support/app.ts";
import { createAccount, signIn } from "../../support/console.ts";
import { SQLITE_ONLY } from "../../support/engines.ts";
import { VALID_INQUIRY } from "../../support/fixtures.ts";
import { mailTo } from "../../support/mail-env.ts";
import { startSmtp, type TestSmtp } from "../../support/smtp.ts";

const ORIGIN = "https://www.firm.example";
const INQUIRY_TO = "inquiries@firm.example";
const ALERT_TO = "alarms@elsewhere.example";
const OWNERS = ["owner-1@firm.example", "owner-2@firm.example"];
const MAX_ATTEMPTS = 3;

describe.each(SQLITE_ONLY)("inquiry notifications on $engine", (engine) => {
  let main: TestSmtp;
  let alert: TestSmtp;
  let t: TestApp;

  afterEach(async () => {
    await t.close();
    await Promise.all([main.close(), alert.close()]);
  });

  /** The app, its firm's mail server (`refused` refuses the inquiry address for good), and the second server. */
  async function start({ refused = false, env = {} }: { refused?: boolean; env?: object } = {}) {
    main = await startSmtp({ unknownRecipients: refused ? [INQUIRY_TO] : [] });
    alert = await startSmtp();
    t = await startApp(
      engine,
      mailTo(main.url, {
        PUBLIC_ORIGIN: ORIGIN,
        INQUIRY_TO,
        ALERT_SMTP_URL: alert.url,
        ALERT_TO,
        OUTBOX_MAX_ATTEMPTS: String(MAX_ATTEMPTS),
        ...env,
      }),
    );
    for (const email of OWNERS) await createAccount(t.database, "owner", email);
    await createAccount(t.database, "editor", "editor@firm.example");
  }

  async function sendInquiry(): Promise<number> {
    const response = await post(t.app, await openSession(t.app), "/api/v1/send-comment", {
      ...VALID_INQUIRY,
    });
    expect(response.statusCode).toBe(200);
    return response.json().id;
  }

  /** What the console's detail and list say of the inquiry; both must agree. */
  async function notified(id: number): Promise<string> {
    const owner = await signIn(t.app, OWNERS[0] ?? "");
    const detail = (await owner.request("GET", inquiryPath(INQUIRY_PATHS.one, id))).json();
    const page = (await owner.request("GET", INQUIRY_PATHS.list)).json() as InquiryPage;
    const listed = page.inquiries.find((inquiry) => inquiry.id === id);
    expect(listed?.notified).toBe((detail as InquiryDetail).notified);
    return (detail as InquiryDetail).notified;
  }

  async function notificationRow(id: number) {
    return t.database.db
      .selectFrom("inquiries")
      .innerJoin("outbox", "outbox.id", "inquiries.notification_outbox_id")
      .select(["outbox.id", "outbox.kind", "outbox.status", "outbox.attempts"])
      .where("inquiries.id", "=", id)
      .executeTakeFirstOrThrow();
  }

  /** Resolves once the outbox has nothing left to try. */
  const outboxIdle = () =>
    expect
      .poll(async () =>
        (
          await t.database.db
            .selectFrom("outbox")
            .select("id")
            .where("status", "=", "pending")
            .execute()
        ).map((row) => row.id),
      )
      .toEqual([]);

  function expectAlarmAbout(id: number) {
    const recipients = alert.received.flatMap((mail) => mail.recipients).sort();
    expect(recipients).toEqual([...OWNERS, ALERT_TO].sort());
    for (const mail of alert.received) {
      expect(mail.parsed.subject).toBe(`Not delivered: the notification of inquiry ${id}`);
      const text = mail.parsed.text ?? "";
      expect(text).toContain(`from Grace Hopper, Harvard Computation Lab`);
      expect(text).toContain(`${ORIGIN}/admin/inquiries/${id}`);
      expect(text).toContain(INQUIRY_TO);
      for (const part of [text, mail.parsed.html ?? ""]) {
        for (const personal of [
          VALID_INQUIRY.email,
          VALID_INQUIRY.phoneNumber,
          VALID_INQUIRY.jobTitle,
          VALID_INQUIRY.comments,
        ]) {
          expect(part).not.toContain(personal);
        }
      }
    }
  }

  it("reads failed, and alarms every owner and ALERT_TO once through the second server, when the firm's address is refused for good", async () => {
    await start({ refused: true });
    const id = await sendInquiry();
    await alert.waitFor(OWNERS.length + 1);
    await outboxIdle();
    expect(await notificationRow(id)).toMatchObject({
      kind: "inquiry-notification",
      status: "failed",
      attempts: 1,
    });
    expect(await notified(id)).toBe("failed");
    expectAlarmAbout(id);
    expect(main.received).toEqual([]);

    // The same failure told again (another instance, a late report) alarms no one.
    const alarm = notificationAlarm({ config: t.config, db: t.database.db, log: t.app.log });
    expect(alarm).toBeTypeOf("function");
    const { id: outboxId } = await notificationRow(id);
    await alarm?.(outboxId, "told again");
    expect(alert.received).toHaveLength(OWNERS.length + 1);
  });

  it("reads failed, and alarms once, when a temporary failure lasts until the last attempt", async () => {
    await start();
    main.refuseNext(MAX_ATTEMPTS);
    const id = await sendInquiry();
    await alert.waitFor(OWNERS.length + 1);
    await outboxIdle();
    expect(await notificationRow(id)).toMatchObject({ status: "failed", attempts: MAX_ATTEMPTS });
    expect(await notified(id)).toBe("failed");
    expectAlarmAbout(id);
    expect(main.received).toEqual([]);
  });

  it("reads pending while the notification waits for its retry, then sent, and alarms no one", async () => {
    // The retry waits an hour, so "pending" is read before it, however slow the machine.
    await start({ env: { OUTBOX_RETRY_BASE_MS: "3600000", OUTBOX_RETRY_MAX_MS: "3600000" } });
    main.refuseNext(1);
    const id = await sendInquiry();
    const { id: outboxId } = await notificationRow(id);
    // The first attempt is over once its refusal is recorded and the claim let go.
    await expect
      .poll(() =>
        t.database.db
          .selectFrom("outbox")
          .select(["status", "locked_until"])
          .where("id", "=", outboxId)
          .where("last_error", "is not", null)
          .executeTakeFirst(),
      )
      .toEqual({ status: "pending", locked_until: null });
    expect(await notified(id)).toBe("pending");
    // Then the hour is over: the row falls due now, and the sender takes it.
    await t.database.db
      .updateTable("outbox")
      .set({ next_attempt_at: new Date().toISOString() })
      .where("id", "=", outboxId)
      .execute();
    await main.waitForMailTo(INQUIRY_TO);
    await expect.poll(() => notified(id)).toBe("sent");
    await outboxIdle();
    expect(alert.received).toEqual([]);
  });

  it("reads failed once a hard bounce comes back for a notification the server took", async () => {
    await start();
    const id = await sendInquiry();
    await main.waitForMailTo(INQUIRY_TO);
    await expect.poll(() => notified(id)).toBe("sent");
    const { id: outboxId } = await notificationRow(id);
    const report = {
      email: INQUIRY_TO,
      status: "5.1.1",
      source: "mailbox",
      outboxId,
      messageKind: "inquiry-notification",
      issueId: null,
      text: "The mailbox is gone.",
    };
    await recordReport(
      t.database.db,
      { ...report, kind: "soft", sourceKey: "test:soft" },
      { limit: 3, days: 15 },
    );
    expect(await notified(id)).toBe("sent");
    await recordReport(
      t.database.db,
      { ...report, kind: "hard", sourceKey: "test:hard" },
      { limit: 3, days: 15 },
    );
    expect(await notified(id)).toBe("failed");
  });
});

/**
 * The send guard: its verdict at the limits, and a send through the
 * outbox and a real SMTP server that refuses its first 30 readers for good
 * pausing itself with its reason, an audit entry and a mail to the owner,
 * then finishing after the owner resumes it, on both engines.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startApp, type TestApp } from "../../../../test/support/app.ts";
import { type ConsoleClient, createAccount, signIn } from "../../../../test/support/console.ts";
import { ENGINES } from "../../../../test/support/engines.ts";
import { mailTo } from "../../../../test/support/mail-env.ts";
import { unwrapped } from "../../../../test/support/mail-text.ts";
import { addSubscribers, newsletterDraft } from "../../../../test/support/newsletter.ts";
import { startSmtp, type TestSmtp } from "../../../../test/support/smtp.ts";
import { type IssueDetail, NEWSLETTER_PATHS } from "../../../shared/admin/newsletter.ts";
import { guardVerdict, type SendGuardPolicy } from "./send-guard.tsx";

const POLICY: SendGuardPolicy = {
  window: 1000,
  minCopies: 100,
  hardBouncePercent: 5,
  complaintPercent: 0.1,
};

describe("the send guard's verdict", () => {
  const verdict = (copies: number, hardBounces: number, complaints: number) =>
    guardVerdict({ copies, hardBounces, complaints }, POLICY);

  it("says nothing before the least number of copies has finished", () => {
    expect(verdict(99, 99, 99)).toBeNull();
  });

  it("lets a send at the limits go on, and pauses one past them", () => {
    expect(verdict(1000, 50, 1)).toBeNull();
    expect(verdict(1000, 51, 0)).toBe(
      "51 of the last 1000 copies bounced (5.1 %, above the 5 % limit). Check the list for old or mistyped addresses before resuming.",
    );
    expect(verdict(1000, 0, 2)).toBe(
      "2 of the last 1000 copies were reported as spam (0.2 %, above the 0.1 % limit). Check that every reader asked for Insight before resuming.",
    );
  });
});

describe.each(ENGINES)("a send that bounces too much on $engine", (engine) => {
  const READERS = 200;
  /**
   * The first 30 readers have no mailbox: the first copies bounce far past
   * the limit, the rest of the list is sound.
   */
  const gone = Array.from({ length: 30 }, (_, n) => `reader-${n}@example.com`);
  let smtp: TestSmtp;
  let t: TestApp;
  let owner: ConsoleClient;

  beforeAll(async () => {
    smtp = await startSmtp({ unknownRecipients: gone });
    t = await startApp(
      engine,
      mailTo(smtp.url, {
        PUBLIC_ORIGIN: "https://www.firm.example",
        NEWSLETTER_RATE_PER_SECOND: "100",
        SEND_GUARD_MIN_COPIES: "50",
      }),
    );
    await createAccount(t.database, "owner", "boss@firm.example");
    owner = await signIn(t.app, "boss@firm.example");
    await addSubscribers(t.database, "reader", READERS);
  });
  afterAll(async () => {
    await t.close();
    await smtp.close();
  });

  const detail = async (id: number): Promise<IssueDetail> =>
    (await owner.request("GET", NEWSLETTER_PATHS.one(id))).json();

  it("pauses itself, says why, tells the owner, and finishes once resumed", async () => {
    const created = await owner.request("POST", NEWSLETTER_PATHS.list, newsletterDraft("guarded"));
    const { id } = created.json() as IssueDetail;
    expect((await owner.request("POST", NEWSLETTER_PATHS.send(id), {})).statusCode).toBe(200);

    await expect.poll(async () => (await detail(id)).status, { timeout: 15_000 }).toBe("paused");
    const paused = await detail(id);
    expect(paused.progress.pausedReason).toMatch(
      /^\d+ of the last \d+ copies bounced \(\d+(\.\d+)? %, above the 5 % limit\)\./,
    );
    // Paused before the end: copies are held, not all sent.
    expect(paused.progress.queued).toBeGreaterThan(0);

    const [alarm] = await smtp.waitForMailTo("boss@firm.example");
    expect(alarm?.parsed.subject).toBe('Insight paused: "Issue guarded"');
    expect(unwrapped(alarm?.parsed.text)).toContain(paused.progress.pausedReason ?? "");
    expect(alarm?.parsed.text).toContain(`https://www.firm.example/admin/newsletter/${id}`);
    const audit = await t.database.db
      .selectFrom("audit_log")
      .select(["actor", "action", "target", "user_id"])
      .where("target", "=", `issue:${id}`)
      .where("action", "=", "issue-paused")
      .execute();
    expect(audit).toEqual([
      { actor: "Send guard", action: "issue-paused", target: `issue:${id}`, user_id: null },
    ]);

    // The owner has looked and resumes: the guard counts afresh, the copies
    // left all arrive, and the send finishes.
    expect((await owner.request("POST", NEWSLETTER_PATHS.resume(id), {})).statusCode).toBe(200);
    expect((await detail(id)).progress.pausedReason).toBeNull();
    await expect.poll(async () => (await detail(id)).status, { timeout: 15_000 }).toBe("sent");
  });
});

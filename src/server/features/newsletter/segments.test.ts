/**
 * An issue to a segment, on both engines, through a real send to a real
 * SMTP server: the tags in use and each segment's count (any or all of its
 * tags, matched as spelt) take only active subscribers, as the send does;
 * the copies go to exactly the subscribers counted, the issue keeps the
 * segment it went to, and a segment the console could not have built is
 * refused before anything is queued.
 */
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { startApp, type TestApp } from "../../../../test/support/app.ts";
import { type ConsoleClient, createAccount, signIn } from "../../../../test/support/console.ts";
import { ENGINES } from "../../../../test/support/engines.ts";
import { mailTo } from "../../../../test/support/mail-env.ts";
import { addSubscribers, newsletterDraft } from "../../../../test/support/newsletter.ts";
import { startSmtp, type TestSmtp } from "../../../../test/support/smtp.ts";
import { withQuery } from "../../../admin/api/client.ts";
import {
  type IssueDetail,
  NEWSLETTER_PATHS,
  NO_TAG_CHOSEN,
  type RecipientCount,
  type Segment,
  segmentLabel,
} from "../../../shared/admin/newsletter.ts";
import {
  PERSON_LIMITS,
  SUBSCRIBER_ROUTES,
  type TagList,
} from "../../../shared/admin/subscribers.ts";

/** Each reader's tags; reader-5's address is suppressed, and the last two are not active. */
const TAGS: Record<string, string[]> = {
  "reader-0@example.com": ["clients"],
  "reader-1@example.com": ["clients", "partners"],
  "reader-2@example.com": ["partners"],
  "reader-3@example.com": ["Clients"],
  "reader-4@example.com": [],
  "reader-5@example.com": ["clients", "partners"],
  "gone-0@example.com": ["clients", "partners"],
  "waiting-0@example.com": ["clients", "partners"],
};

describe.each(ENGINES)("an issue to a segment, on $engine", (engine) => {
  let smtp: TestSmtp;
  let t: TestApp;
  let editor: ConsoleClient;

  beforeAll(async () => {
    smtp = await startSmtp();
    t = await startApp(engine, mailTo(smtp.url));
    await createAccount(t.database, "editor");
    editor = await signIn(t.app, "editor@firm.example");
    await addSubscribers(t.database, "reader", 6);
    await addSubscribers(t.database, "gone", 1, { unsubscribed: true });
    await addSubscribers(t.database, "waiting", 1, { confirmed: false });
    const ids = await t.database.db.selectFrom("subscriptions").select(["id", "email"]).execute();
    const rows = ids.flatMap(({ id, email }) =>
      (TAGS[email] ?? []).map((tag) => ({ subscription_id: id, tag })),
    );
    await t.database.db.insertInto("subscription_tags").values(rows).execute();
    await t.database.db
      .insertInto("suppressions")
      .values({
        email: "reader-5@example.com",
        reason: "hard-bounce",
        report_id: null,
        created_at: new Date().toISOString(),
      })
      .execute();
  });
  afterAll(async () => {
    await t?.close();
    await smtp?.close();
  });

  const count = (query: Record<string, unknown>) =>
    editor.request("GET", withQuery(NEWSLETTER_PATHS.recipients, query));
  async function countOf(query: Record<string, unknown>): Promise<number> {
    const answer = await count(query);
    expect(answer.statusCode, answer.body).toBe(200);
    return (answer.json() as RecipientCount).count;
  }

  it("lists the tags active subscribers have, most used first, each with its count", async () => {
    const answer = await editor.request("GET", SUBSCRIBER_ROUTES.tags);
    expect(answer.statusCode, answer.body).toBe(200);
    expect((answer.json() as TagList).items).toEqual([
      { tag: "clients", active: 2 },
      { tag: "partners", active: 2 },
      { tag: "Clients", active: 1 },
    ]);
  });

  it("counts a segment's active subscribers: any of its tags, or all of them, as spelt", async () => {
    expect(await countOf({})).toBe(5);
    expect(await countOf({ tag: "clients" })).toBe(2);
    expect(await countOf({ tag: ["clients", "partners"] })).toBe(3);
    expect(await countOf({ match: "any", tag: ["clients", "partners"] })).toBe(3);
    expect(await countOf({ match: "all", tag: ["clients", "partners"] })).toBe(1);
    expect(await countOf({ match: "all", tag: ["clients", "Clients"] })).toBe(0);
    expect(await countOf({ tag: "  Clients " })).toBe(1);
    expect(await countOf({ tag: "nobody has this" })).toBe(0);
  });

  it("refuses a segment the console could not have built, saying which part", async () => {
    const tooLong = "t".repeat(PERSON_LIMITS.tag + 1);
    const tooMany = Array.from({ length: PERSON_LIMITS.tags + 1 }, (_, n) => `tag ${n}`);
    for (const query of [
      { tag: tooLong },
      { tag: tooMany },
      { tag: "   " },
      { tag: "line\nbreak" },
      { match: "some", tag: "clients" },
    ]) {
      const answer = await count(query);
      expect(answer.statusCode, JSON.stringify(query)).toBe(400);
      expect(answer.json(), JSON.stringify(query)).toHaveProperty("message");
    }
  });

  it("refuses to send to a segment with no tag, and the issue stays a draft", async () => {
    const created = await editor.request("POST", NEWSLETTER_PATHS.list, newsletterDraft("none"));
    const { id } = created.json() as IssueDetail;
    const sent = await editor.request("POST", NEWSLETTER_PATHS.send(id), {
      segment: { match: "any", tags: [] },
    });
    expect(sent.statusCode).toBe(400);
    expect(sent.json().fields).toEqual({ tags: NO_TAG_CHOSEN });
    const detail = (await editor.request("GET", NEWSLETTER_PATHS.one(id))).json() as IssueDetail;
    expect(detail).toMatchObject({ status: "draft", segment: null });
  });

  it("sends one copy to each subscriber the segment counted, and no one else", async () => {
    const segment: Segment = { match: "any", tags: ["clients", "partners"], topics: [] };
    const counted = await countOf({ match: segment.match, tag: segment.tags });
    const created = await editor.request("POST", NEWSLETTER_PATHS.list, newsletterDraft("some"));
    const { id } = created.json() as IssueDetail;
    const sent = await editor.request("POST", NEWSLETTER_PATHS.send(id), { segment });
    expect(sent.statusCode, sent.body).toBe(200);
    expect((sent.json() as IssueDetail).segment).toEqual(segment);

    await vi.waitFor(async () => {
      const detail = (await editor.request("GET", NEWSLETTER_PATHS.one(id))).json() as IssueDetail;
      if (detail.status !== "sent") throw new Error(`the send is ${detail.status}`);
    });
    const detail = (await editor.request("GET", NEWSLETTER_PATHS.one(id))).json() as IssueDetail;
    expect(detail.recipients).toBe(counted);
    const to = smtp.received
      .filter((mail) => mail.parsed.subject === "Issue some")
      .flatMap((mail) => mail.recipients)
      .sort();
    expect(to).toEqual(["reader-0@example.com", "reader-1@example.com", "reader-2@example.com"]);

    const audit = await t.database.db
      .selectFrom("audit_log")
      .select("detail")
      .where("action", "=", "issue-sent")
      .where("target", "=", `issue:${id}`)
      .executeTakeFirstOrThrow();
    expect(JSON.parse(audit.detail ?? "{}")).toMatchObject({ to: segmentLabel(segment) });
  });
});

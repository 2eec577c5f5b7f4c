/**
 * The console's suppression list on both engines: the list with the report
 * behind each address, its filter, pages and CSV export, who may read and who
 * may lift, and the lift's audit entry. Suppressions are made as reports make
 * them (recordReport); each test works on a domain of its own and searches
 * for it, so the tests do not see each other's rows.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { withQuery } from "../../../src/admin/api/client.ts";
import {
  isSuppressed,
  type NewReport,
  recordReport,
} from "../../../src/server/features/deliverability/index.ts";
import { storeSubscription } from "../../../src/server/features/subscriptions/index.ts";
import { AUTH_TEXTS } from "../../../src/shared/admin/auth.ts";
import { NEWSLETTER_PATHS } from "../../../src/shared/admin/newsletter.ts";
import {
  CONSENT_VIA,
  PAGE_SIZE,
  SUBSCRIBER_ROUTES,
  type SubscriberDetail,
  type SubscriberList,
  subscriberPath,
} from "../../../src/shared/admin/subscribers.ts";
import {
  SUPPRESSION_ROUTES,
  SUPPRESSION_TEXTS,
  type SuppressionList,
  suppressionPath,
} from "../../../src/shared/admin/suppressions.ts";
import { lastAuditId, startApp, type TestApp } from "../../support/app.ts";
import { anonymous, type ConsoleClient, createAccount, signIn } from "../../support/console.ts";
import { csvRows } from "../../support/csv.ts";
import { ENGINES } from "../../support/engines.ts";
import { newsletterDraft } from "../../support/newsletter.ts";

const POLICY = { limit: 3, days: 15 };
const MINUTE_MS = 60_000;
const START = new Date("2026-11-02T08:00:00.000Z");

/** A moment `minutes` after the start, so each test orders its own rows. */
const at = (minutes: number) => new Date(START.getTime() + minutes * MINUTE_MS);

function report(email: string, kind: NewReport["kind"], extra: Partial<NewReport> = {}): NewReport {
  return {
    email,
    kind,
    status: kind === "complaint" ? null : kind === "hard" ? "5.1.1" : "4.2.2",
    source: "mailbox",
    sourceKey: null,
    outboxId: null,
    messageKind: "newsletter",
    issueId: null,
    text: `The ${kind} report for ${email}.\n\nIts second paragraph.`,
    ...extra,
  };
}

describe.each(ENGINES)("the suppression list in the console on $engine", (engine) => {
  let t: TestApp;
  let viewer: ConsoleClient;
  let editor: ConsoleClient;
  let owner: ConsoleClient;

  beforeAll(async () => {
    t = await startApp(engine);
    for (const role of ["viewer", "editor", "owner"] as const) {
      await createAccount(t.database, role, `suppressions-${role}@firm.example`);
    }
    viewer = await signIn(t.app, "suppressions-viewer@firm.example");
    editor = await signIn(t.app, "suppressions-editor@firm.example");
    owner = await signIn(t.app, "suppressions-owner@firm.example");
  });
  afterAll(() => t.close());

  const suppress = (email: string, kind: NewReport["kind"], when: Date, extra = {}) =>
    recordReport(t.database.db, report(email, kind, extra), POLICY, when);

  async function list(query: Record<string, string | number>, client = viewer) {
    const response = await client.request("GET", withQuery(SUPPRESSION_ROUTES.list, query));
    expect(response.statusCode).toBe(200);
    return response.json() as SuppressionList;
  }

  const emails = async (query: Record<string, string | number>) =>
    (await list(query)).items.map((item) => item.email);

  async function idOf(email: string): Promise<number> {
    const [item] = (await list({ q: email })).items;
    if (!item) throw new Error(`${email} is not suppressed`);
    return item.id;
  }

  it("lists each address with its reason, since when, and the report that decided it", async () => {
    const created = await editor.request("POST", NEWSLETTER_PATHS.list, newsletterDraft("bounced"));
    expect(created.statusCode).toBe(201);
    const issue = created.json() as { id: number; title: string };

    await suppress("gone@listed.example", "hard", at(1), { source: "smtp", issueId: issue.id });
    await suppress("spam@listed.example", "complaint", at(2), { source: "webhook:mailgun" });
    for (const minute of [3, 4, 5]) await suppress("full@listed.example", "soft", at(minute));

    const { items, total, page, pageSize } = await list({ q: "@listed.example" });
    expect({ total, page, pageSize }).toEqual({ total: 3, page: 1, pageSize: PAGE_SIZE });
    expect(items).toEqual([
      {
        id: expect.any(Number),
        email: "full@listed.example",
        reason: "soft-bounces",
        since: expect.any(String),
        report: {
          kind: "soft",
          status: "4.2.2",
          source: "mailbox",
          receivedAt: expect.any(String),
          issue: null,
          text: "The soft report for full@listed.example.\n\nIts second paragraph.",
        },
      },
      expect.objectContaining({
        email: "spam@listed.example",
        reason: "complaint",
        report: expect.objectContaining({
          kind: "complaint",
          status: null,
          source: "webhook:mailgun",
        }),
      }),
      expect.objectContaining({
        email: "gone@listed.example",
        reason: "hard-bounce",
        report: expect.objectContaining({
          kind: "hard",
          status: "5.1.1",
          source: "smtp",
          issue: { id: issue.id, title: issue.title },
        }),
      }),
    ]);
    // The third soft bounce, the one that decided it, is the report shown.
    const [soft] = items;
    expect(new Date(soft?.since ?? "").getTime()).toBe(at(5).getTime());
    expect(new Date(soft?.report?.receivedAt ?? "").getTime()).toBe(at(5).getTime());
  });

  it("filters by reason and finds an address by any part, in any case", async () => {
    await suppress("one@filter.example", "hard", at(10));
    await suppress("two@filter.example", "complaint", at(11));
    await suppress("three@filter.example", "hard", at(12));

    expect(await emails({ q: "@filter.example", reason: "hard-bounce" })).toEqual([
      "three@filter.example",
      "one@filter.example",
    ]);
    expect(await emails({ q: "@filter.example", reason: "complaint" })).toEqual([
      "two@filter.example",
    ]);
    expect(await emails({ q: "@filter.example", reason: "soft-bounces" })).toEqual([]);
    expect(await emails({ q: "TWO@Filter" })).toEqual(["two@filter.example"]);
    // An unknown reason shows every reason, as a hand-edited address would want.
    expect(await emails({ q: "@filter.example", reason: "bounced" })).toHaveLength(3);
    // LIKE's wildcards in a search are the characters themselves.
    expect(await emails({ q: "%@filter" })).toEqual([]);
    expect(await emails({ q: "on_@filter" })).toEqual([]);
  });

  it("answers fifty to a page, newest first", async () => {
    for (let n = 0; n < PAGE_SIZE + 2; n++) {
      await suppress(`reader-${String(n).padStart(2, "0")}@paging.example`, "hard", at(100 + n));
    }
    const first = await list({ q: "@paging.example" });
    expect(first.total).toBe(PAGE_SIZE + 2);
    expect(first.items).toHaveLength(PAGE_SIZE);
    expect(first.items[0]?.email).toBe(`reader-${PAGE_SIZE + 1}@paging.example`);
    expect(await emails({ q: "@paging.example", page: 2 })).toEqual([
      "reader-01@paging.example",
      "reader-00@paging.example",
    ]);
  });

  it("exports the filtered list as CSV, formulas kept as text, and audits the export", async () => {
    await suppress("=1+2@formula.example", "complaint", at(200));
    await suppress("plain@formula.example", "hard", at(201), { source: "smtp" });

    const response = await viewer.request(
      "GET",
      withQuery(SUPPRESSION_ROUTES.export, { q: "formula.example", reason: "all" }),
    );
    expect(response.statusCode).toBe(200);
    expect(response.headers["content-type"]).toContain("text/csv");
    expect(response.headers["content-disposition"]).toContain("suppressions.csv");
    const [header, ...rows] = csvRows(response.body);
    expect(header).toEqual([
      "address",
      "reason",
      "suppressed_at",
      "report_kind",
      "report_status",
      "report_source",
      "issue",
    ]);
    expect(rows).toEqual([
      [
        "plain@formula.example",
        "hard-bounce",
        expect.stringMatching(/^\d{4}-\d\d-\d\dT/),
        "hard",
        "5.1.1",
        "smtp",
        "",
      ],
      [
        "'=1+2@formula.example",
        "complaint",
        expect.stringMatching(/^\d{4}-/),
        "complaint",
        "",
        "mailbox",
        "",
      ],
    ]);

    const complaints = await viewer.request(
      "GET",
      withQuery(SUPPRESSION_ROUTES.export, { q: "formula.example", reason: "complaint" }),
    );
    expect(csvRows(complaints.body)).toHaveLength(2);

    const audit = await t.database.db
      .selectFrom("audit_log")
      .select(["actor", "detail"])
      .where("action", "=", "suppressions-exported")
      .execute();
    expect(audit.map((entry) => [entry.actor, JSON.parse(entry.detail ?? "{}")])).toEqual([
      [
        "suppressions-viewer@firm.example",
        { filter: { q: "formula.example", reason: "all" }, rows: 2 },
      ],
      [
        "suppressions-viewer@firm.example",
        { filter: { q: "formula.example", reason: "complaint" }, rows: 1 },
      ],
    ]);
  });

  it("lets a viewer read it, refuses a viewer's and an editor's lift, and a stranger", async () => {
    await suppress("kept@roles.example", "hard", at(300));
    const id = await idOf("kept@roles.example");

    for (const client of [viewer, editor]) {
      const refused = await client.request("DELETE", suppressionPath(id));
      expect(refused.statusCode).toBe(403);
      expect(refused.json()).toEqual({ message: AUTH_TEXTS.roleTooWeak });
    }
    const stranger = await anonymous(t.app);
    expect((await stranger.request("GET", SUPPRESSION_ROUTES.list)).statusCode).toBe(401);
    expect((await stranger.request("GET", SUPPRESSION_ROUTES.export)).statusCode).toBe(401);
    expect((await stranger.request("DELETE", suppressionPath(id))).statusCode).toBe(401);
    expect(await isSuppressed(t.database.db, "kept@roles.example")).toBe(true);
  });

  it("lets an owner lift a suppression once, with its audit entry", async () => {
    // Other tests here lift suppressions too, before or after this one: only
    // the entries written from here on are this lift's.
    const auditBefore = await lastAuditId(t.database);
    await suppress("forgiven@lift.example", "complaint", at(400));
    await suppress("still@lift.example", "hard", at(401));
    const id = await idOf("forgiven@lift.example");

    const lifted = await owner.request("DELETE", suppressionPath(id));
    expect(lifted.statusCode).toBe(204);
    expect(await emails({ q: "@lift.example" })).toEqual(["still@lift.example"]);
    expect(await isSuppressed(t.database.db, "forgiven@lift.example")).toBe(false);

    const audit = await t.database.db
      .selectFrom("audit_log")
      .select(["actor", "target", "detail"])
      .where("action", "=", "suppression-lifted")
      .where("id", ">", auditBefore)
      .execute();
    expect(audit.map((entry) => ({ ...entry, detail: JSON.parse(entry.detail ?? "{}") }))).toEqual([
      {
        actor: "suppressions-owner@firm.example",
        // The row's number, not the address: the log outlives an erasure.
        target: `suppression:${id}`,
        detail: { reason: "complaint" },
      },
    ]);

    const again = await owner.request("DELETE", suppressionPath(id));
    expect(again.statusCode).toBe(404);
    expect(again.json()).toEqual({ message: SUPPRESSION_TEXTS.notFound });
  });

  it("lifts once when two owners lift at the same moment", async () => {
    await suppress("raced@race.example", "hard", at(500));
    const id = await idOf("raced@race.example");
    const answers = await Promise.all([
      owner.request("DELETE", suppressionPath(id)),
      owner.request("DELETE", suppressionPath(id)),
    ]);
    expect(answers.map((answer) => answer.statusCode).sort()).toEqual([204, 404]);
    const entries = await t.database.db
      .selectFrom("audit_log")
      .select("id")
      .where("target", "=", `suppression:${id}`)
      .execute();
    expect(entries).toHaveLength(1);
  });

  it("refuses what names no suppression in words of its own, never the server's internals", async () => {
    const refusals = [
      await owner.request("DELETE", suppressionPath(999_999)),
      await owner.request("DELETE", `${SUPPRESSION_ROUTES.list}/abc`),
      await owner.request("DELETE", `${SUPPRESSION_ROUTES.list}/1%20OR%201=1`),
      await viewer.request("GET", withQuery(SUPPRESSION_ROUTES.list, { q: "x".repeat(255) })),
    ];
    expect(refusals.map((refusal) => refusal.statusCode)).toEqual([404, 400, 400, 400]);
    expect(refusals[0]?.json()).toEqual({ message: SUPPRESSION_TEXTS.notFound });
    for (const refusal of refusals) {
      expect(Object.keys(refusal.json())).toContain("message");
      expect(refusal.body).not.toMatch(
        /sql|select|delete from|kysely|stack|\bat \w+ \(|node_modules/i,
      );
    }
  });

  it("marks a suppressed subscriber in the subscribers list and on its page, until lifted", async () => {
    await storeSubscription(t.app, "reader@marked.example", CONSENT_VIA.website);
    await storeSubscription(t.app, "fine@marked.example", CONSENT_VIA.website);
    await suppress("reader@marked.example", "hard", at(600));

    const subscribers = async () => {
      const response = await viewer.request(
        "GET",
        withQuery(SUBSCRIBER_ROUTES.list, { q: "@marked.example" }),
      );
      const { items } = response.json() as SubscriberList;
      return Object.fromEntries(items.map((item) => [item.email, item.suppressed]));
    };
    expect(await subscribers()).toEqual({
      "reader@marked.example": true,
      "fine@marked.example": false,
    });
    const [row] = (
      (
        await viewer.request("GET", withQuery(SUBSCRIBER_ROUTES.list, { q: "reader@marked" }))
      ).json() as SubscriberList
    ).items;
    const page = await viewer.request("GET", subscriberPath(row?.id ?? 0));
    expect((page.json() as SubscriberDetail).suppressed).toBe(true);

    await owner.request("DELETE", suppressionPath(await idOf("reader@marked.example")));
    expect(await subscribers()).toEqual({
      "reader@marked.example": false,
      "fine@marked.example": false,
    });
  });
});

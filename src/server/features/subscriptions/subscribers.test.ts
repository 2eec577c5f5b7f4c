/**
 * The subscribers area's API on both engines. Each test
 * works on addresses of its own domain and filters by it, so the tests do not
 * see each other's rows.
 */
import type { Kysely } from "kysely";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import {
  openSession,
  post,
  type Session,
  startApp,
  type TestApp,
} from "../../../../test/support/app.ts";
import {
  anonymous,
  type ConsoleClient,
  createAccount,
  signIn,
} from "../../../../test/support/console.ts";
import { csvRows } from "../../../../test/support/csv.ts";
import { ENGINES } from "../../../../test/support/engines.ts";
import { addSubscribers } from "../../../../test/support/newsletter.ts";
import { withQuery } from "../../../admin/api/client.ts";
import { AUTH_TEXTS } from "../../../shared/admin/auth.ts";
import { ERASURE_TEXTS } from "../../../shared/admin/erasure.ts";
import {
  CONSENT_VIA,
  PAGE_SIZE,
  SUBSCRIBER_ROUTES,
  SUBSCRIBER_TEXTS,
  type SubscriberDetail,
  type SubscriberList,
  type SubscriberStats,
  subscriberPath,
} from "../../../shared/admin/subscribers.ts";
import type { Database, SubscriptionEventsTable } from "../../platform/db/schema.ts";
import { signingSecret } from "../../platform/security/signing-secret.ts";
import { isSuppressed, recordReport } from "../deliverability/index.ts";
import { erasureHash } from "./erasure-hash.ts";
import { subscribe, unsubscribe } from "./queries.ts";
import { isErased, monthKeys } from "./subscribers.ts";
import { signUnsubscribeToken } from "./unsubscribe-token.ts";
import { storeSubscription } from "./writes.ts";

describe("the growth chart's months", () => {
  it("are the twelve calendar months up to this one, across a year's end", () => {
    const keys = monthKeys(new Date("2025-02-15T12:00:00Z"));
    expect(keys).toHaveLength(12);
    expect(keys[0]).toBe("2024-03");
    expect(keys.at(-1)).toBe("2025-02");
  });
});

describe.each(ENGINES)("the subscribers area on $engine", (engine) => {
  let t: TestApp;
  let visitor: Session;
  let viewer: ConsoleClient;
  let editor: ConsoleClient;
  let owner: ConsoleClient;
  let secret: string;
  let db: Kysely<Database>;

  beforeAll(async () => {
    t = await startApp(engine);
    db = t.database.db;
    visitor = await openSession(t.app);
    for (const role of ["viewer", "editor", "owner"] as const) {
      await createAccount(t.database, role, `subs-${role}@firm.example`);
    }
    viewer = await signIn(t.app, "subs-viewer@firm.example");
    editor = await signIn(t.app, "subs-editor@firm.example");
    owner = await signIn(t.app, "subs-owner@firm.example");
    secret = await signingSecret(t.database.db, t.config.UNSUBSCRIBE_SECRET);
  });
  afterAll(() => t.close());

  /** Subscribes through the public API, as the site's script does. */
  async function subscribeOnWebsite(email: string) {
    const response = await post(
      t.app,
      visitor,
      `/api/v1/subscribe?emailId=${encodeURIComponent(email)}`,
    );
    expect(response.statusCode).toBe(201);
  }

  async function idOf(email: string): Promise<number> {
    const row = await db
      .selectFrom("subscriptions")
      .select("id")
      .where("email", "=", email)
      .executeTakeFirstOrThrow();
    return row.id;
  }

  async function tokenOf(email: string): Promise<string> {
    const row = await db
      .selectFrom("subscriptions")
      .select(["id", "email", "subscribed_at"])
      .where("email", "=", email)
      .executeTakeFirstOrThrow();
    return signUnsubscribeToken(secret, {
      id: row.id,
      email: row.email,
      subscribedAt: new Date(row.subscribed_at).toISOString(),
      unsubscribedAt: null,
    });
  }

  async function list(client: ConsoleClient, query: Record<string, string | number>) {
    const response = await client.request("GET", withQuery(SUBSCRIBER_ROUTES.list, query));
    expect(response.statusCode).toBe(200);
    return response.json() as SubscriberList;
  }

  async function detail(id: number): Promise<SubscriberDetail> {
    const response = await viewer.request("GET", subscriberPath(id));
    expect(response.statusCode).toBe(200);
    return response.json() as SubscriberDetail;
  }

  async function stats(): Promise<SubscriberStats> {
    const response = await viewer.request("GET", SUBSCRIBER_ROUTES.stats);
    expect(response.statusCode).toBe(200);
    return response.json() as SubscriberStats;
  }

  /** A subscription whose consent events happened at the given times. */
  async function subscribedAt(email: string, subscribed: Date, unsubscribed?: Date) {
    const [row] = await db
      .insertInto("subscriptions")
      .values({
        email,
        subscribed_at: subscribed.toISOString(),
        subscribed_via: CONSENT_VIA.website,
        unsubscribed_at: unsubscribed?.toISOString() ?? null,
        unsubscribed_via: unsubscribed ? CONSENT_VIA.oneClick : null,
        created_at: subscribed.toISOString(),
        updated_at: subscribed.toISOString(),
      })
      .returning("id")
      .execute();
    if (!row) throw new Error("no row");
    const events: { event: SubscriptionEventsTable["event"]; at: Date; via: string }[] = [
      { event: "subscribed", at: subscribed, via: CONSENT_VIA.website },
    ];
    if (unsubscribed) {
      events.push({ event: "unsubscribed", at: unsubscribed, via: CONSENT_VIA.oneClick });
    }
    await db
      .insertInto("subscription_events")
      .values(
        events.map((e) => ({
          subscription_id: row.id,
          event: e.event,
          via: e.via,
          at: e.at.toISOString(),
        })),
      )
      .execute();
    return row.id;
  }

  it("finds addresses by any part, in any case, newest first, fifty to a page", async () => {
    const start = Date.UTC(2024, 0, 1);
    for (let n = 0; n < PAGE_SIZE + 3; n++) {
      const day = new Date(start + n * 86_400_000);
      await subscribedAt(`reader-${String(n).padStart(2, "0")}@paging.example`, day);
    }
    const first = await list(viewer, { q: "PAGING.Example" });
    expect(first.total).toBe(PAGE_SIZE + 3);
    expect(first.items).toHaveLength(PAGE_SIZE);
    expect(first.items[0]?.email).toBe(`reader-${PAGE_SIZE + 2}@paging.example`);
    const second = await list(viewer, { q: "paging.example", page: 2 });
    expect(second.items.map((item) => item.email)).toEqual([
      "reader-02@paging.example",
      "reader-01@paging.example",
      "reader-00@paging.example",
    ]);
    // LIKE's wildcards in a search are the characters themselves.
    expect((await list(viewer, { q: "reader_0" })).total).toBe(0);
    expect((await list(viewer, { q: "%@paging" })).total).toBe(0);
  });

  it("finds an address whatever its accents and case", async () => {
    await subscribedAt("josé.garcía@accents.example", new Date());
    for (const q of ["jose.garcia@accents", "JOSÉ.GARCÍA", "garcia@ACCENTS.example"]) {
      expect({ q, found: (await list(viewer, { q })).items.map((item) => item.email) }).toEqual({
        q,
        found: ["josé.garcía@accents.example"],
      });
    }
  });

  it("filters by status and counts active and unsubscribed addresses", async () => {
    const before = await stats();
    await subscribeOnWebsite("stays@status.example");
    await subscribeOnWebsite("leaves@status.example");
    await unsubscribe(db, await idOf("leaves@status.example"), CONSENT_VIA.link);

    const emails = async (status: string) =>
      (await list(viewer, { q: "@status.example", status })).items.map((item) => item.email);
    expect(await emails("active")).toEqual(["stays@status.example"]);
    expect(await emails("unsubscribed")).toEqual(["leaves@status.example"]);
    expect((await emails("all")).sort()).toEqual(["leaves@status.example", "stays@status.example"]);

    const after = await stats();
    expect(after.active - before.active).toBe(1);
    expect(after.unsubscribed - before.unsubscribed).toBe(1);
  });

  it("counts an address waiting for its confirmation apart from the active ones", async () => {
    const before = await stats();
    await addSubscribers(t.database, "waiting", 2, { confirmed: false });
    const after = await stats();
    expect(after.awaitingConfirmation - before.awaitingConfirmation).toBe(2);
    expect(after.active).toBe(before.active);
  });

  it("counts subscriptions and unsubscriptions per calendar month for the last twelve", async () => {
    const now = new Date();
    const monthsAgo = (n: number, day = 15) =>
      new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth() - n, day, 10));
    const byMonth = (s: SubscriberStats) => new Map(s.months.map((m) => [m.month, m]));
    const before = byMonth(await stats());

    await subscribedAt("a@months.example", monthsAgo(2, 1), monthsAgo(0, 1));
    await subscribedAt("b@months.example", monthsAgo(2, 28));
    await subscribedAt("c@months.example", monthsAgo(11, 1));
    await subscribedAt("old@months.example", monthsAgo(12, 28));

    const after = await stats();
    expect(after.months.map((m) => m.month)).toEqual(monthKeys(now));
    const grown = (n: number) => {
      const key = monthKeys(now)[11 - n] ?? "";
      const [a, b] = [byMonth(after).get(key), before.get(key)];
      return {
        subscribed: (a?.subscribed ?? 0) - (b?.subscribed ?? 0),
        unsubscribed: (a?.unsubscribed ?? 0) - (b?.unsubscribed ?? 0),
      };
    };
    expect(grown(2)).toEqual({ subscribed: 2, unsubscribed: 0 });
    expect(grown(0)).toEqual({ subscribed: 0, unsubscribed: 1 });
    expect(grown(11)).toEqual({ subscribed: 1, unsubscribed: 0 });
  });

  it("records each consent change with how it happened", async () => {
    const email = "history@consent.example";
    await subscribeOnWebsite(email);
    const id = await idOf(email);

    const link = await post(t.app, visitor, "/api/v1/unsubscribe", {
      token: await tokenOf(email),
    });
    expect(link.statusCode).toBe(200);

    await subscribeOnWebsite(email);
    const oneClick = await t.app.inject({
      method: "POST",
      url: `/unsubscribe?token=${await tokenOf(email)}`,
      headers: { "content-type": "application/x-www-form-urlencoded" },
      payload: "List-Unsubscribe=One-Click",
    });
    expect(oneClick.statusCode).toBe(200);

    // As the form posted without JavaScript subscribes (the pages' forms
    // service; test/features/pages/forms.test.ts shows it names the form).
    expect(await storeSubscription(t.app, email, CONSENT_VIA.form)).not.toBeNull();

    const byConsole = await editor.request("POST", subscriberPath(id, "unsubscribe"));
    expect(byConsole.statusCode).toBe(200);
    expect(byConsole.json()).toMatchObject({ status: "unsubscribed", unsubscribedVia: "console" });

    const history = (await detail(id)).events.map(({ event, via }) => `${event} ${via}`);
    expect(history).toEqual([
      "subscribed website",
      "unsubscribed unsubscribe page",
      "subscribed website",
      "unsubscribed one-click",
      "subscribed form",
      "unsubscribed console",
    ]);

    const again = await editor.request("POST", subscriberPath(id, "unsubscribe"));
    expect(again.statusCode).toBe(409);
    expect(again.json()).toEqual({ message: SUBSCRIBER_TEXTS.alreadyUnsubscribed });
    expect((await detail(id)).events).toHaveLength(6);

    const audit = await db
      .selectFrom("audit_log")
      .select(["actor", "target"])
      .where("action", "=", "subscriber-unsubscribed")
      .execute();
    expect(audit).toEqual([{ actor: "subs-editor@firm.example", target: `subscription:${id}` }]);
  });

  it("records one event when the same address is subscribed twice at once", async () => {
    const email = "twice@consent.example";
    const outcomes = await Promise.all([
      subscribe(db, email, CONSENT_VIA.website),
      subscribe(db, email, CONSENT_VIA.website),
    ]);
    expect(outcomes.filter(Boolean)).toHaveLength(1);
    expect((await detail(await idOf(email))).events).toHaveLength(1);
  });

  it("erases an address: its row, its history, its mail and its reports go, a keyed hash stays", async () => {
    const email = "erase-me@erasure.example";
    await subscribeOnWebsite(email);
    const id = await idOf(email);
    const other = "keep-me@erasure.example";
    await subscribeOnWebsite(other);
    // Mail to the address in both shapes `to` takes, and mail that only mentions it.
    const queue = (to: unknown, subject = "Hello") =>
      db
        .insertInto("outbox")
        .values({
          kind: "test",
          message: JSON.stringify({ messageId: "x", from: "f@firm.example", to, subject }),
          status: "sent",
          next_attempt_at: new Date().toISOString(),
          created_at: new Date().toISOString(),
          updated_at: new Date().toISOString(),
        })
        .execute();
    await queue({ name: "Erase Me", address: "Erase-Me@Erasure.example" });
    await queue("not-erase-me@erasure.example", `About ${email}`);
    await queue({ name: "Keep", address: other });
    const mailTo = async (address: string) => {
      const rows = await db.selectFrom("outbox").select("message").execute();
      return rows.filter((row) => {
        const { to } = JSON.parse(row.message) as { to: string | { address: string } };
        return (typeof to === "string" ? to : to.address).toLowerCase() === address;
      }).length;
    };
    expect(await mailTo(email)).toBe(2); // the welcome and the one above
    // What came back about its mail: a report, and the suppression it decided.
    const bounce = {
      kind: "hard" as const,
      status: "5.2.2",
      source: "mailbox",
      sourceKey: null,
      outboxId: null,
      messageKind: null,
      issueId: null,
      text: `<${email}>: mailbox full`,
    };
    await recordReport(db, { ...bounce, email }, { limit: 3, days: 15 });
    await recordReport(db, { ...bounce, email: other }, { limit: 3, days: 15 });
    // And an unverified report naming it, kept and shown, never acted on.
    const unverified = (named: string, key: string) =>
      db
        .insertInto("set_aside_mail")
        .values({
          source_key: key,
          state: "unverified",
          email: named,
          kind: "complaint",
          status: null,
          why: "It carries no token of a message the site sent.",
          text: `A complaint about mail to ${named}`,
          received_at: new Date().toISOString(),
        })
        .execute();
    await unverified(email, "mailbox:erasure:1");
    await unverified(other, "mailbox:erasure:2");
    const setAsideOf = (address: string) =>
      db.selectFrom("set_aside_mail").select("id").where("email", "=", address).execute();
    const othersBefore = await mailTo(other);
    const mentioning = await mailTo("not-erase-me@erasure.example");

    const mistyped = await owner.request("DELETE", subscriberPath(id), {
      email: "erase-me@erasure.exampl",
    });
    expect(mistyped.statusCode).toBe(400);
    expect(mistyped.json()).toMatchObject({ fields: { email: ERASURE_TEXTS.confirmMismatch } });
    expect(await mailTo(email)).toBe(2);

    const erased = await owner.request("DELETE", subscriberPath(id), {
      email: " Erase-Me@erasure.example ",
    });
    expect(erased.statusCode).toBe(204);

    const row = await db
      .selectFrom("subscriptions")
      .select("id")
      .where("email", "=", email)
      .executeTakeFirst();
    expect(row).toBeUndefined();
    const events = await db
      .selectFrom("subscription_events")
      .select("id")
      .where("subscription_id", "=", id)
      .execute();
    expect(events).toEqual([]);
    expect(await mailTo(email)).toBe(0);
    const reportsOf = (address: string) =>
      db.selectFrom("delivery_reports").select("id").where("email", "=", address).execute();
    expect(await reportsOf(email)).toEqual([]);
    expect(await setAsideOf(email)).toEqual([]);
    expect(await setAsideOf(other)).toHaveLength(1);
    expect(await isSuppressed(db, email)).toBe(false);
    expect(await reportsOf(other)).toHaveLength(1);
    expect(await isSuppressed(db, other)).toBe(true);
    expect(await mailTo(other)).toBe(othersBefore);
    expect(await mailTo("not-erase-me@erasure.example")).toBe(mentioning);
    expect(await idOf(other)).toBeGreaterThan(0);

    const hash = erasureHash(secret, email);
    expect(hash).toMatch(/^[0-9a-f]{64}$/);
    expect(await isErased(db, "ERASE-ME@erasure.example", secret)).toBe(true);
    expect(await isErased(db, other, secret)).toBe(false);

    const audit = await db
      .selectFrom("audit_log")
      .selectAll()
      .where("action", "=", "subscriber-erased")
      .execute();
    expect(audit).toHaveLength(1);
    expect(JSON.stringify(audit).toLowerCase()).not.toContain("erase-me");
    expect(audit[0]).toMatchObject({ target: `subscription:${id}` });
    expect(JSON.parse(audit[0]?.detail ?? "{}")).toEqual({ emailHash: hash, mailDeleted: 2 });

    expect((await viewer.request("GET", subscriberPath(id))).statusCode).toBe(404);
    const twice = await owner.request("DELETE", subscriberPath(id), { email });
    expect(twice.statusCode).toBe(404);
    expect(twice.json()).toEqual({ message: SUBSCRIBER_TEXTS.notFound });

    // Subscribing again on the website is new consent, and is allowed.
    await subscribeOnWebsite(email);
    expect(await isErased(db, email, secret)).toBe(true);
  });

  it("exports the current filter as CSV with formulas kept as text, and audits it", async () => {
    await subscribe(db, "=1+2@formula.example", CONSENT_VIA.website);
    await subscribe(db, "plain@formula.example", CONSENT_VIA.form);
    await unsubscribe(db, await idOf("plain@formula.example"), CONSENT_VIA.console);
    const response = await viewer.request(
      "GET",
      withQuery(SUBSCRIBER_ROUTES.export, { q: "formula.example", status: "all" }),
    );
    expect(response.statusCode).toBe(200);
    expect(response.headers["content-type"]).toContain("text/csv");
    expect(response.headers["content-disposition"]).toContain("subscribers.csv");
    const [header, ...rows] = csvRows(response.body);
    expect(header).toEqual([
      "address",
      // The person, empty where unknown (test/features/subscriptions/subscriber-import.test.ts).
      "first_name",
      "last_name",
      "tags",
      // The subscribe page's topics each chose (topics.test.ts).
      "topics",
      "fields",
      "status",
      "subscribed_at",
      // Empty but for an address an import brought (test/features/subscriptions/subscriber-import.test.ts).
      "imported_at",
      "via",
      "unsubscribed_at",
      // The visit that brought each subscriber, empty where unknown (test/site/lead-source.test.ts).
      "source_entry_page",
      "source_referrer",
      "source_channel",
      "source_utm_source",
      "source_utm_medium",
      "source_utm_campaign",
    ]);
    const byAddress = new Map(rows.map((row) => [row[0], row]));
    expect(byAddress.get("'=1+2@formula.example")).toMatchObject([
      "'=1+2@formula.example",
      ...["", "", "", "", ""],
      "active",
      expect.stringMatching(/^\d{4}-\d\d-\d\dT/),
      "",
      "website",
      "",
      // Subscribed here without a visit: no source.
      ...["", "", "", "", "", ""],
    ]);
    const plain = byAddress.get("plain@formula.example");
    expect(plain?.[header?.indexOf("status") ?? -1]).toBe("unsubscribed");
    expect(plain?.[header?.indexOf("unsubscribed_at") ?? -1]).toMatch(/^\d{4}-/);

    const activeOnly = await viewer.request(
      "GET",
      withQuery(SUBSCRIBER_ROUTES.export, { q: "formula.example", status: "active" }),
    );
    expect(csvRows(activeOnly.body)).toHaveLength(2);

    const audit = await db
      .selectFrom("audit_log")
      .select(["actor", "detail"])
      .where("action", "=", "subscribers-exported")
      .execute();
    expect(audit.map((entry) => [entry.actor, JSON.parse(entry.detail ?? "{}").rows])).toEqual([
      ["subs-viewer@firm.example", 2],
      ["subs-viewer@firm.example", 1],
    ]);
  });

  it("refuses a viewer's unsubscribe and erasure, and an editor's erasure", async () => {
    const email = "guarded@roles.example";
    await subscribeOnWebsite(email);
    const id = await idOf(email);
    const refusals = [
      await viewer.request("POST", subscriberPath(id, "unsubscribe")),
      await viewer.request("DELETE", subscriberPath(id), { email }),
      await editor.request("DELETE", subscriberPath(id), { email }),
    ];
    for (const refusal of refusals) {
      expect(refusal.statusCode).toBe(403);
      expect(refusal.json()).toEqual({ message: AUTH_TEXTS.roleTooWeak });
    }
    const stranger = await anonymous(t.app);
    expect((await stranger.request("GET", SUBSCRIBER_ROUTES.list)).statusCode).toBe(401);
    expect(await detail(id)).toMatchObject({ status: "active", events: [expect.anything()] });
  });
});

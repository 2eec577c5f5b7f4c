/**
 * One audience: on a list holding every kind of address (confirmed, awaiting
 * confirmation, lapsed unconfirmed, unsubscribed, erased, and addresses on
 * the suppression list in each of those states), the console's list and each
 * of its filters, its counts, its CSV, the firm's export and an issue's send
 * all say the same of who is active, and none calls a suppressed one active.
 */
import { parse } from "csv-parse/sync";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { withQuery } from "../../../src/admin/api/client.ts";
import {
  activeSubscribers,
  eraseSubscriber,
} from "../../../src/server/features/subscriptions/index.ts";
import {
  CONSENT_VIA,
  SUBSCRIBER_ROUTES,
  type SubscriberList,
  type SubscriberStats,
  type SubscriberStatus,
} from "../../../src/shared/admin/subscribers.ts";
import { startApp, type TestApp } from "../../support/app.ts";
import { type ConsoleClient, createAccount, signIn } from "../../support/console.ts";
import { ENGINES } from "../../support/engines.ts";
import { addSubscribers, scheduleIssue } from "../../support/newsletter.ts";

describe.each(ENGINES)("who is active, on $engine", (engine) => {
  let t: TestApp;
  let viewer: ConsoleClient;
  const expected = new Map<string, SubscriberStatus>();

  beforeAll(async () => {
    t = await startApp(engine);
    await createAccount(t.database, "viewer", "audience-viewer@firm.example");
    viewer = await signIn(t.app, "audience-viewer@firm.example");
    const { db } = t.database;
    const add = async (prefix: string, count: number, status: SubscriberStatus, state = {}) => {
      const emails = await addSubscribers(t.database, prefix, count, state);
      for (const email of emails) expected.set(email, status);
      return emails;
    };
    /** Adds addresses that bounced for good after they subscribed. */
    const addBounced = async (...args: Parameters<typeof add>) => {
      const emails = await add(...args);
      const at = new Date().toISOString();
      await db
        .insertInto("suppressions")
        .values(emails.map((email) => ({ email, reason: "hard-bounce", created_at: at })))
        .execute();
    };
    await add("confirmed", 3, "active");
    await add("awaiting", 2, "awaiting", { confirmed: false });
    await add("unsubscribed", 2, "unsubscribed", { unsubscribed: true });
    await addBounced("bounced", 2, "suppressed");
    // A bounced address that subscribed again waits for its link, which lifts the suppression.
    await addBounced("bounced-back", 1, "awaiting", { confirmed: false });
    await addBounced("bounced-left", 1, "unsubscribed", { unsubscribed: true });
    // Asked, never confirmed, and lapsed: what the expiry leaves behind.
    await add("lapsed", 1, "unsubscribed", { confirmed: false, unsubscribed: true });
    await db
      .updateTable("subscriptions")
      .set({ unsubscribed_via: CONSENT_VIA.lapsed })
      .where("email", "like", "lapsed-%")
      .execute();
    const [erased] = await addSubscribers(t.database, "erased", 1);
    const row = await db
      .selectFrom("subscriptions")
      .select("id")
      .where("email", "=", erased ?? "")
      .executeTakeFirstOrThrow();
    expect(await eraseSubscriber(t.database, row.id, "secret")).toBeDefined();
  });
  afterAll(() => t.close());

  const byStatus = (status: SubscriberStatus) =>
    [...expected].filter(([, s]) => s === status).map(([email]) => email);

  async function listed(status: string) {
    const response = await viewer.request("GET", withQuery(SUBSCRIBER_ROUTES.list, { status }));
    expect(response.statusCode).toBe(200);
    const list = response.json() as SubscriberList;
    return { total: list.total, rows: list.items.map((item) => [item.email, item.status]) };
  }

  async function exported(status: string) {
    const response = await viewer.request("GET", withQuery(SUBSCRIBER_ROUTES.export, { status }));
    expect(response.statusCode).toBe(200);
    const [header = [], ...rows] = parse(response.body, { bom: true }) as string[][];
    const [address, rowStatus] = [header.indexOf("address"), header.indexOf("status")];
    return rows.map((row) => [row[address], row[rowStatus]]);
  }

  const sorted = (rows: (string | undefined)[][]) =>
    rows.map((row) => row.join(" ")).sort((a, b) => a.localeCompare(b));
  const expectedRows = (status?: SubscriberStatus) =>
    sorted([...expected].filter(([, s]) => status === undefined || s === status));

  it("the list shows each address with its own status, and the erased one not at all", async () => {
    const all = await listed("all");
    expect(all.total).toBe(expected.size);
    expect(sorted(all.rows)).toEqual(expectedRows());
    expect(sorted(await exported("all"))).toEqual(expectedRows());
  });

  it.each(["active", "awaiting", "suppressed", "unsubscribed"] as const)(
    "the %s filter, its count and its CSV hold the same addresses",
    async (status) => {
      const list = await listed(status);
      expect(sorted(list.rows)).toEqual(expectedRows(status));
      expect(list.total).toBe(byStatus(status).length);
      expect(sorted(await exported(status))).toEqual(expectedRows(status));

      const response = await viewer.request("GET", SUBSCRIBER_ROUTES.stats);
      const stats = response.json() as SubscriberStats;
      const counted = {
        active: stats.active,
        awaiting: stats.awaitingConfirmation,
        suppressed: stats.suppressed,
        unsubscribed: stats.unsubscribed,
      }[status];
      expect(counted).toBe(list.total);
    },
  );

  it("the firm's export and an issue's send go to the active addresses only", async () => {
    const exportedActive = await activeSubscribers(t.database.db);
    expect(exportedActive.map((row) => row.email).sort()).toEqual(byStatus("active").sort());

    const issue = await scheduleIssue(t.database, "audience", 10);
    // The dispatcher queues a due issue as it queues every send.
    t.app.newsletter.wake();
    await expect
      .poll(async () => {
        const { queued_all_at } = await t.database.db
          .selectFrom("issues")
          .select("queued_all_at")
          .where("id", "=", issue.id)
          .executeTakeFirstOrThrow();
        return queued_all_at;
      })
      .toBeTruthy();
    const copies = await t.database.db
      .selectFrom("outbox")
      .innerJoin("subscriptions", "subscriptions.id", "outbox.subscription_id")
      .select("subscriptions.email")
      .where("outbox.issue_id", "=", issue.id)
      .execute();
    expect(copies.map((row) => row.email).sort()).toEqual(byStatus("active").sort());
    const { recipients } = await t.database.db
      .selectFrom("issues")
      .select("recipients")
      .where("id", "=", issue.id)
      .executeTakeFirstOrThrow();
    expect(recipients).toBe(byStatus("active").length);
  });
});

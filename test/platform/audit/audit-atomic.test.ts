/**
 * A console change and its audit entry commit together. The database is
 * made to refuse every new audit entry (a trigger), and each kind of change
 * is tried: each answers with an error and leaves nothing changed (nor
 * starts a backup), so the log never misses a change that was kept. Both
 * engines.
 */
import { type Kysely, sql } from "kysely";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { storeInquiry } from "../../../src/server/features/inquiries/index.ts";
import { storeSubscription } from "../../../src/server/features/subscriptions/index.ts";
import type { Database } from "../../../src/server/platform/db/schema.ts";
import { AUTH_PATHS } from "../../../src/shared/admin/auth.ts";
import { BACKUPS_PATH } from "../../../src/shared/admin/backups.ts";
import { CONTENT_API } from "../../../src/shared/admin/content.ts";
import { INQUIRY_PATHS, inquiryPath } from "../../../src/shared/admin/inquiries.ts";
import { NEWSLETTER_PATHS } from "../../../src/shared/admin/newsletter.ts";
import { PEOPLE_PATHS } from "../../../src/shared/admin/people.ts";
import { SITE_FACTS_PATHS } from "../../../src/shared/admin/site-facts.ts";
import { CONSENT_VIA, subscriberPath } from "../../../src/shared/admin/subscribers.ts";
import { startApp, type TestApp } from "../../support/app.ts";
import { type ConsoleClient, createAccount, signIn } from "../../support/console.ts";
import { ENGINES } from "../../support/engines.ts";
import { VALID_INQUIRY } from "../../support/fixtures.ts";
import { newsletterDraft } from "../../support/newsletter.ts";

/** Makes every insert into the audit log fail, as a full disk or a broken table would. */
async function refuseAuditEntries(db: Kysely<Database>, engine: "sqlite" | "postgres") {
  if (engine === "sqlite") {
    await sql`create trigger refuse_audit before insert on audit_log
      begin select raise(abort, 'the audit log refuses entries'); end`.execute(db);
  } else {
    await sql`create function refuse_audit() returns trigger language plpgsql as $$
      begin raise exception 'the audit log refuses entries'; end $$`.execute(db);
    await sql`create trigger refuse_audit before insert on audit_log
      for each row execute function refuse_audit()`.execute(db);
  }
}

describe.each(ENGINES)("a change whose audit entry fails, on $engine", (engine) => {
  let t: TestApp;
  let owner: ConsoleClient;
  let auditRows: number;

  const countOf = async (table: "audit_log" | "issues" | "users" | "outbox" | "backups") =>
    Number(
      (
        await t.database.db
          .selectFrom(table)
          .select((eb) => eb.fn.countAll().as("n"))
          .executeTakeFirstOrThrow()
      ).n,
    );

  beforeAll(async () => {
    t = await startApp(engine);
    await createAccount(t.database, "owner", "audit-owner@firm.example");
    owner = await signIn(t.app, "audit-owner@firm.example");
    await refuseAuditEntries(t.database.db, engine.engine);
    auditRows = await countOf("audit_log");
  });
  afterAll(async () => {
    // Nothing was written to the log by any test here.
    expect(await countOf("audit_log")).toBe(auditRows);
    await t.close();
  });

  /** The change failed as a whole: an error, said without internals. */
  function expectRefusedByServer(response: { statusCode: number; body: string }) {
    expect(response.statusCode).toBe(500);
    expect(response.body).not.toMatch(/audit/i);
  }

  it("keeps no inquiry status change, note or erasure", async () => {
    const id = await storeInquiry(t.app, VALID_INQUIRY);
    expectRefusedByServer(
      await owner.request("PUT", inquiryPath(INQUIRY_PATHS.status, id), { status: "answered" }),
    );
    expectRefusedByServer(
      await owner.request("POST", inquiryPath(INQUIRY_PATHS.notes, id), { body: "Called back." }),
    );
    expectRefusedByServer(
      await owner.request("DELETE", inquiryPath(INQUIRY_PATHS.one, id), {
        email: VALID_INQUIRY.email,
      }),
    );
    const inquiry = await owner.request("GET", inquiryPath(INQUIRY_PATHS.one, id));
    expect(inquiry.statusCode).toBe(200);
    expect(inquiry.json()).toMatchObject({ status: "new", notes: [] });
  });

  it("keeps no unsubscription", async () => {
    const subscription = await storeSubscription(t.app, "stays@audit.example", CONSENT_VIA.website);
    const id = subscription?.id as number;
    expectRefusedByServer(await owner.request("POST", subscriberPath(id, "unsubscribe")));
    expect((await owner.request("GET", subscriberPath(id))).json()).toMatchObject({
      unsubscribedAt: null,
    });
  });

  it("keeps no content or site-facts change, and the public pages do not show one", async () => {
    const list = (await owner.request("GET", `${CONTENT_API}/case-studies`)).json();
    const study = list.entries[0];
    const hide = await owner.request("PUT", `${CONTENT_API}/case-studies/${study.id}/visibility`, {
      hidden: true,
      version: study.version,
    });
    expectRefusedByServer(hide);
    const after = (await owner.request("GET", `${CONTENT_API}/case-studies/${study.id}`)).json();
    expect(after).toMatchObject({ hidden: false, version: study.version });
    const page = await t.app.inject({ url: `/weserve/case-studies/${study.fields.slug}` });
    expect(page.statusCode).toBe(200);

    const facts = (await owner.request("GET", SITE_FACTS_PATHS.facts)).json();
    const mission = "A mission nobody may see.";
    expectRefusedByServer(
      await owner.request("PUT", SITE_FACTS_PATHS.facts, {
        fields: { ...facts.fields, mission },
        version: facts.version,
      }),
    );
    const kept = (await owner.request("GET", SITE_FACTS_PATHS.facts)).json();
    expect(kept.version).toBe(facts.version);
    expect((await t.app.inject({ url: "/" })).body).not.toContain(mission);
  });

  it("keeps no new issue of Insight", async () => {
    const before = await countOf("issues");
    expectRefusedByServer(
      await owner.request("POST", NEWSLETTER_PATHS.list, newsletterDraft("never-kept")),
    );
    expect(await countOf("issues")).toBe(before);
  });

  it("keeps no invitation: no account and no e-mail", async () => {
    const [users, mail] = [await countOf("users"), await countOf("outbox")];
    expectRefusedByServer(
      await owner.request("POST", PEOPLE_PATHS.people, {
        email: "never@firm.example",
        name: "Never Invited",
        role: "editor",
      }),
    );
    expect([await countOf("users"), await countOf("outbox")]).toEqual([users, mail]);
  });

  it("starts no backup: no claim of the console's slot and no archive", async () => {
    const backups = await countOf("backups");
    expectRefusedByServer(await owner.request("POST", BACKUPS_PATH));
    expect(await countOf("backups")).toBe(backups);
    expect((await owner.request("GET", BACKUPS_PATH)).json()).toMatchObject({ backingUp: false });
  });

  it("keeps the session when signing out cannot be recorded", async () => {
    expectRefusedByServer(await owner.request("DELETE", AUTH_PATHS.session));
    const session = await owner.request("GET", AUTH_PATHS.session);
    expect(session.json().me).toMatchObject({ email: "audit-owner@firm.example" });
  });
});

/**
 * Bringing a list along, on both engines: the exports recognised, a file
 * mapped by hand, every reason a row is refused, the consent statement kept
 * in each address's history, no welcome (a confirmation with double
 * opt-in), the audit entry, the owner-only gate, 100,000 rows, and an import
 * that fails halfway leaving nothing behind. Each test uses addresses of its
 * own domain.
 */
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { type Kysely, sql } from "kysely";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { withQuery } from "../../../src/admin/api/client.ts";
import { recordReport } from "../../../src/server/features/deliverability/index.ts";
import {
  activeSubscribers,
  confirmByLink,
  eraseSubscriber,
  storeSubscription,
} from "../../../src/server/features/subscriptions/index.ts";
import type { Database } from "../../../src/server/platform/db/schema.ts";
import { signingSecret } from "../../../src/server/platform/security/signing-secret.ts";
import {
  EARLIEST_CONSENT_DAY,
  IMPORT_LIMITS,
  IMPORT_ROUTES,
  IMPORT_TEXTS,
  type ImportPreview,
  type ImportReport,
  type ImportResult,
  importRunQuerySchema,
  OUTCOME_LABELS,
} from "../../../src/shared/admin/subscriber-import.ts";
import {
  CONSENT_VIA,
  SUBSCRIBER_ROUTES,
  type SubscriberDetail,
  type SubscriberList,
  type SubscriberStats,
  subscriberPath,
} from "../../../src/shared/admin/subscribers.ts";
import { startApp, type TestApp } from "../../support/app.ts";
import { type ConsoleClient, createAccount, signIn } from "../../support/console.ts";
import { csvRecords, csvRows } from "../../support/csv.ts";
import { ENGINES } from "../../support/engines.ts";
import { expectLinear } from "../../support/growth.ts";
import { multipartBody } from "../../support/multipart.ts";
import { unsubscribeByOneClick } from "../../support/subscription-links.ts";

const FIXTURES = join(import.meta.dirname, "../../fixtures/imports");
const fixture = (name: string) => readFileSync(join(FIXTURES, name));

/** A Mailchimp-shaped file of `rows`: [address, CONFIRM_TIME, UNSUB_TIME, CLEAN_TIME]. */
function mailchimpFile(rows: readonly (readonly string[])[]): Buffer {
  const header =
    '"Email Address","First Name","MEMBER_RATING","OPTIN_TIME","CONFIRM_TIME","UNSUB_TIME","CLEAN_TIME","LEID"';
  const lines = rows.map(
    ([address, confirmed = "", unsubscribed = "", cleaned = ""], index) =>
      `"${address}","Person ${index}",2,"","${confirmed}","${unsubscribed}","${cleaned}",${index}`,
  );
  return Buffer.from([header, ...lines].join("\r\n"));
}

const STATEMENT = {
  consentSource: "Sign-up form of our Mailchimp list, 2019 to 2024",
  consentDate: "2024-06-30",
};

describe("the consent statement's date", () => {
  const dayFromNow = (days: number) =>
    new Date(Date.now() + days * 24 * 60 * 60 * 1000).toISOString().slice(0, 10);
  const parse = (consentDate: string) =>
    importRunQuerySchema.safeParse({ consentSource: "A fair", consentDate });

  it("takes today wherever the importer is, and refuses a day after that", () => {
    expect(parse(dayFromNow(0)).success).toBe(true);
    // Already today east of UTC (up to UTC+14) while the server's day is still yesterday.
    expect(parse(dayFromNow(1)).success).toBe(true);
    expect(parse(dayFromNow(2)).error?.issues[0]?.message).toBe(IMPORT_TEXTS.dateInFuture);
    expect(parse("2024-02-30").success).toBe(false);
    expect(parse(EARLIEST_CONSENT_DAY).success).toBe(true);
    expect(parse("1989-12-31").error?.issues[0]?.message).toBe(IMPORT_TEXTS.dateTooEarly);
    expect(parse("30/06/2024").error?.issues[0]?.message).toBe(IMPORT_TEXTS.dateRequired);
  });
});

describe.each(ENGINES)("the subscriber import on $engine", (engine) => {
  let t: TestApp;
  let db: Kysely<Database>;
  let owner: ConsoleClient;
  let editor: ConsoleClient;
  let viewer: ConsoleClient;
  let secret: string;
  /** The server's clock, the real one unless a test sets a moment. */
  let moment: number | undefined;

  beforeAll(async () => {
    t = await startApp(engine, {}, { now: () => moment ?? Date.now() });
    db = t.database.db;
    for (const role of ["viewer", "editor", "owner"] as const) {
      await createAccount(t.database, role, `import-${role}@firm.example`);
    }
    owner = await signIn(t.app, "import-owner@firm.example");
    editor = await signIn(t.app, "import-editor@firm.example");
    viewer = await signIn(t.app, "import-viewer@firm.example");
    secret = await signingSecret(db, t.config.UNSUBSCRIBE_SECRET);
  });
  afterAll(() => t.close());

  async function send(
    client: ConsoleClient,
    path: string,
    bytes: Buffer,
    query: Record<string, string> = {},
    filename = "list.csv",
  ) {
    const { payload, contentType } = await multipartBody(bytes, filename);
    const search = new URLSearchParams(query).toString();
    return t.app.inject({
      method: "POST",
      url: search ? `${path}?${search}` : path,
      headers: { cookie: client.cookie, "x-xsrf-token": client.token, "content-type": contentType },
      payload,
    });
  }

  const preview = async (bytes: Buffer, query: Record<string, string> = {}) => {
    const response = await send(owner, IMPORT_ROUTES.preview, bytes, query);
    expect(response.statusCode, response.body).toBe(200);
    return response.json() as ImportPreview;
  };
  const dryRun = async (bytes: Buffer, query: Record<string, string> = {}) => {
    const response = await send(owner, IMPORT_ROUTES.dryRun, bytes, query);
    expect(response.statusCode, response.body).toBe(200);
    return response.json() as ImportReport;
  };
  const runImport = async (
    bytes: Buffer,
    query: Record<string, string> = {},
    filename = "list.csv",
  ) => {
    const response = await send(
      owner,
      IMPORT_ROUTES.run,
      bytes,
      { ...STATEMENT, ...query },
      filename,
    );
    expect(response.statusCode, response.body).toBe(200);
    return response.json() as ImportResult;
  };

  const countLike = async (table: "subscriptions", pattern: string) =>
    Number(
      (
        await db
          .selectFrom(table)
          .select((eb) => eb.fn.countAll<number | string>().as("n"))
          .where("email", "like", pattern)
          .executeTakeFirstOrThrow()
      ).n,
    );

  const mailTo = async (domain: string) => {
    const rows = await db.selectFrom("outbox").select(["kind", "priority", "message"]).execute();
    return rows
      .map((row) => ({ ...row, parsed: JSON.parse(row.message) as { to: string; text: string } }))
      .filter((row) => row.parsed.to.endsWith(`@${domain}`));
  };

  it("recognises Mailchimp, Substack and Ghost exports by their headers", async () => {
    const cases = [
      ["mailchimp-subscribed.csv", "mailchimp", "Email Address", "CONFIRM_TIME", 7],
      ["mailchimp-unsubscribed.csv", "mailchimp", "Email Address", "CONFIRM_TIME", 1],
      ["mailchimp-cleaned.csv", "mailchimp", "Email Address", "CONFIRM_TIME", 1],
      ["substack.csv", "substack", "email", "created_at", 3],
      ["ghost.csv", "ghost", "email", "created_at", 2],
      ["other.csv", "other", null, null, 2],
    ] as const;
    for (const [file, format, emailColumn, dateColumn, totalRows] of cases) {
      const answer = await preview(fixture(file));
      expect(answer, file).toMatchObject({ format, emailColumn, dateColumn, totalRows });
      expect(answer.rows.length).toBeGreaterThan(0);
    }
    const mailchimp = await preview(fixture("mailchimp-subscribed.csv"));
    expect(mailchimp.columns.slice(0, 3)).toEqual(["Email Address", "First Name", "Last Name"]);
    expect(mailchimp.rows[0]?.slice(0, 3)).toEqual(["ana.garcia@mc.example", "Ana", "García"]);
  });

  it("reads the rows each export marks as gone as refused", async () => {
    expect((await dryRun(fixture("mailchimp-unsubscribed.csv"))).rows).toEqual([
      {
        row: 2,
        address: "gone@mc.example",
        outcome: "sourceUnsubscribed",
        reason: OUTCOME_LABELS.sourceUnsubscribed,
      },
    ]);
    expect((await dryRun(fixture("mailchimp-cleaned.csv"))).rows).toEqual([
      {
        row: 2,
        address: "dead@mc.example",
        outcome: "sourceCleaned",
        reason: OUTCOME_LABELS.sourceCleaned,
      },
    ]);
    const substack = await dryRun(fixture("substack.csv"));
    expect(substack).toMatchObject({ added: 2, refused: 1 });
    expect(substack.rows.map((row) => [row.row, row.address, row.outcome])).toEqual([
      [4, "muted@ss.example", "sourceUnsubscribed"],
    ]);
    const ghost = await dryRun(fixture("ghost.csv"));
    expect(ghost).toMatchObject({ added: 1, refused: 1 });
    expect(ghost.rows[0]).toMatchObject({
      address: "member.two@gh.example",
      outcome: "sourceUnsubscribed",
    });
  });

  it("reads another file by the columns the importer maps, and refuses a column it lacks", async () => {
    const file = fixture("other.csv");
    const unmapped = await send(owner, IMPORT_ROUTES.dryRun, file);
    expect(unmapped.statusCode).toBe(400);
    expect(unmapped.json().message).toBe(IMPORT_TEXTS.chooseEmailColumn);
    const missing = await send(owner, IMPORT_ROUTES.dryRun, file, { emailColumn: "Mail" });
    expect(missing.statusCode).toBe(400);
    expect(missing.json().message).toBe(IMPORT_TEXTS.noSuchColumn("Mail"));
    const mapping = { emailColumn: "Work e-mail address", dateColumn: "Joined on" };
    expect(await preview(file, mapping)).toMatchObject({
      format: "other",
      emailColumn: "Work e-mail address",
      dateColumn: "Joined on",
    });
    const result = await runImport(file, mapping);
    expect(result).toMatchObject({ format: "other", added: 2, refused: 0 });
    const events = await db
      .selectFrom("subscription_events")
      .innerJoin("subscriptions", "subscriptions.id", "subscription_events.subscription_id")
      .select(["subscriptions.email", "subscription_events.consent_date"])
      .where("subscriptions.email", "like", "%@other.example")
      .orderBy("subscriptions.email")
      .execute();
    // The file's own date where it has one, the statement's day where not.
    expect(events).toEqual([
      { email: "ivy.chen@other.example", consent_date: "2024-01-15T00:00:00.000Z" },
      { email: "jon.park@other.example", consent_date: STATEMENT.consentDate },
    ]);
  });

  it("reports every row it would refuse, and why, and writes nothing in a dry run", async () => {
    const d = "why.example";
    const onList = await storeSubscription(t.app, `on-list@${d}`, CONSENT_VIA.website);
    const left = await storeSubscription(t.app, `left@${d}`, CONSENT_VIA.website);
    const erased = await storeSubscription(t.app, `erased@${d}`, CONSENT_VIA.website);
    if (!onList || !left || !erased) throw new Error("setup failed");
    await unsubscribeByOneClick(t, left.id);
    expect(await eraseSubscriber(t.database, erased.id, secret)).toBeDefined();
    await recordReport(
      db,
      {
        kind: "complaint",
        status: null,
        source: "mailbox",
        sourceKey: null,
        outboxId: null,
        messageKind: null,
        issueId: null,
        email: `complained@${d}`,
        text: "spam",
      },
      { limit: 3, days: 15 },
    );
    const file = mailchimpFile([
      [`new.one@${d}`, "2024-03-05 14:05:40"],
      ["not an address"],
      [`NEW.ONE@${d}`],
      [`complained@${d}`],
      [`left@${d}`],
      [`erased@${d}`],
      [`on-list@${d}`],
      [`gone@${d}`, "", "2024-01-01 00:00:00"],
      [`cleaned@${d}`, "", "", "2024-01-01 00:00:00"],
      ["=HYPERLINK(1)"],
      [`new.two@${d}`],
    ]);
    const before = await countLike("subscriptions", `%@${d}`);
    const report = await dryRun(file);
    expect(report).toMatchObject({
      format: "mailchimp",
      totalRows: 11,
      added: 2,
      alreadyOnList: 1,
      refused: 8,
    });
    expect(report.rows.map(({ row, address, outcome }) => [row, address, outcome])).toEqual([
      [3, "not an address", "invalid"],
      [4, `new.one@${d}`, "duplicate"],
      [5, `complained@${d}`, "suppressed"],
      [6, `left@${d}`, "unsubscribed"],
      [7, `erased@${d}`, "erased"],
      [8, `on-list@${d}`, "alreadyOnList"],
      [9, `gone@${d}`, "sourceUnsubscribed"],
      [10, `cleaned@${d}`, "sourceCleaned"],
      [11, "=HYPERLINK(1)", "invalid"],
    ]);
    expect(report.rows[1]?.reason).toBe(`${OUTCOME_LABELS.duplicate} (row 2)`);
    expect(report.counts).toMatchObject({ invalid: 2, duplicate: 1, suppressed: 1, erased: 1 });
    // The download: the same rows, a formula kept as text.
    const csv = csvRows(report.csv);
    expect(csv[0]).toEqual(["row", "address", "outcome", "reason"]);
    expect(csv).toHaveLength(10);
    expect(csv.at(-1)?.[1]).toBe("'=HYPERLINK(1)");
    expect(await countLike("subscriptions", `%@${d}`)).toBe(before);

    // The import refuses the same rows and adds only the two.
    const result = await runImport(file);
    expect(result).toMatchObject({ added: 2, alreadyOnList: 1, refused: 8 });
    expect(result.rows).toEqual(report.rows);
    expect(await countLike("subscriptions", `%@${d}`)).toBe(before + 2);
    const leftRow = await db
      .selectFrom("subscriptions")
      .select(["unsubscribed_at", "import_id"])
      .where("email", "=", `left@${d}`)
      .executeTakeFirstOrThrow();
    expect(leftRow.unsubscribed_at).not.toBeNull();
    expect(leftRow.import_id).toBeNull();
  });

  it("keeps the consent statement in each address's history, marks it imported, mails no welcome, and audits it", async () => {
    const d = "consent.example";
    /** The growth chart's new and imported addresses, over all its months. */
    const grown = async () => {
      const { months } = (
        await owner.request("GET", SUBSCRIBER_ROUTES.stats)
      ).json() as SubscriberStats;
      return {
        subscribed: months.reduce((sum, month) => sum + month.subscribed, 0),
        imported: months.reduce((sum, month) => sum + month.imported, 0),
      };
    };
    const grownBefore = await grown();
    const file = mailchimpFile([[`first@${d}`, "2024-03-05 14:05:40"], [`second@${d}`]]);
    const result = await runImport(file, {}, "Mailchimp audience.csv");
    expect(result).toMatchObject({
      added: 2,
      doubleOptIn: false,
      message: IMPORT_TEXTS.imported(2),
    });
    const rows = await db
      .selectFrom("subscriptions")
      .select(["id", "email", "subscribed_via", "confirmed_at", "import_id"])
      .where("email", "like", `%@${d}`)
      .orderBy("email")
      .execute();
    expect(rows.map((row) => [row.email, row.subscribed_via, row.import_id])).toEqual([
      [`first@${d}`, "import", result.importId],
      [`second@${d}`, "import", result.importId],
    ]);
    expect(rows.every((row) => row.confirmed_at !== null)).toBe(true);
    const first = rows[0];
    if (!first) throw new Error("no row");
    const detail = (
      await owner.request("GET", subscriberPath(first.id))
    ).json() as SubscriberDetail;
    expect(detail.status).toBe("active");
    expect(detail.subscribedVia).toBe("import");
    expect(detail.events).toEqual([
      expect.objectContaining({
        event: "subscribed",
        via: "import",
        consentSource: STATEMENT.consentSource,
        consentDate: "2024-03-05T14:05:40.000Z",
      }),
    ]);
    expect(detail.imported).toMatchObject({
      importId: result.importId,
      file: "Mailchimp audience.csv",
      consentSource: STATEMENT.consentSource,
      consentDate: STATEMENT.consentDate,
      doubleOptIn: false,
    });
    expect(await mailTo(d)).toEqual([]);

    // Each address subscribed when its former list says it did: the file's
    // moment, else the statement's day; the import's own moment is "Imported".
    const importedAt = detail.imported?.importedAt;
    const dates = {
      [`first@${d}`]: "2024-03-05T14:05:40.000Z",
      [`second@${d}`]: "2024-06-30T00:00:00.000Z",
    };
    const listed = (
      await owner.request("GET", withQuery(SUBSCRIBER_ROUTES.list, { q: `@${d}` }))
    ).json() as SubscriberList;
    expect(
      Object.fromEntries(
        listed.items.map((item) => [item.email, [item.subscribedAt, item.importedAt]]),
      ),
    ).toEqual({
      [`first@${d}`]: [dates[`first@${d}`], importedAt],
      [`second@${d}`]: [dates[`second@${d}`], importedAt],
    });
    const csv = csvRecords(
      (await owner.request("GET", withQuery(SUBSCRIBER_ROUTES.export, { q: `@${d}` }))).body,
    );
    expect(
      Object.fromEntries(csv.map((row) => [row.address, [row.subscribed_at, row.imported_at]])),
    ).toEqual({
      [`first@${d}`]: [dates[`first@${d}`], importedAt],
      [`second@${d}`]: [dates[`second@${d}`], importedAt],
    });
    const forTheFirmsTool = (await activeSubscribers(db)).filter((row) => row.email.endsWith(d));
    expect(
      Object.fromEntries(forTheFirmsTool.map((row) => [row.email, row.subscribed_at])),
    ).toEqual(dates);
    // Not new to the firm: the growth chart counts them as imported, not as new.
    expect(await grown()).toEqual({
      subscribed: grownBefore.subscribed,
      imported: grownBefore.imported + 2,
    });

    // Subscribing anew on the site makes it a subscription of this list, dated now.
    const second = rows[1];
    if (!second) throw new Error("no row");
    await unsubscribeByOneClick(t, second.id);
    await storeSubscription(t.app, `second@${d}`, CONSENT_VIA.website);
    const again = (
      await owner.request("GET", subscriberPath(second.id))
    ).json() as SubscriberDetail;
    expect(again.importedAt).toBeNull();
    expect(Date.parse(again.subscribedAt)).toBeGreaterThan(Date.parse(importedAt ?? ""));

    const stored = await db
      .selectFrom("subscriber_imports")
      .selectAll()
      .where("id", "=", result.importId)
      .executeTakeFirstOrThrow();
    expect(stored).toMatchObject({ format: "mailchimp", rows_read: 2, added: 2, refused: 0 });
    const audit = await db
      .selectFrom("audit_log")
      .select(["actor", "detail"])
      .where("action", "=", "subscribers-imported")
      .where("target", "=", `subscriber-import:${result.importId}`)
      .execute();
    expect(audit).toHaveLength(1);
    expect(audit[0]?.actor).toBe("import-owner@firm.example");
    expect(JSON.parse(audit[0]?.detail ?? "{}")).toMatchObject({
      added: 2,
      file: "Mailchimp audience.csv",
    });
  });

  it("with double opt-in, leaves each address awaiting its confirmation and queues the link, which works", async () => {
    const d = "optin.example";
    const result = await runImport(mailchimpFile([[`one@${d}`], [`two@${d}`]]), {
      doubleOptIn: "true",
    });
    expect(result).toMatchObject({ added: 2, doubleOptIn: true });
    const waiting = await db
      .selectFrom("subscriptions")
      .select(["email", "confirmed_at"])
      .where("email", "like", `%@${d}`)
      .execute();
    expect(waiting.map((row) => row.confirmed_at)).toEqual([null, null]);
    const mail = await mailTo(d);
    expect(mail.map((row) => [row.parsed.to, row.kind, row.priority]).sort()).toEqual([
      [`one@${d}`, "subscription-confirmation", "bulk"],
      [`two@${d}`, "subscription-confirmation", "bulk"],
    ]);
    const one = mail.find((row) => row.parsed.to === `one@${d}`);
    expect(one?.parsed.text).toContain(`one@${d}`);
    expect(one?.message).not.toContain("example.invalid");
    const token = /token=([^\s&\]]+)/.exec(one?.parsed.text ?? "")?.[1];
    if (!token) throw new Error("no confirmation link");
    const confirmed = await confirmByLink(t.app, decodeURIComponent(token));
    expect(confirmed.state).toBe("confirmed");
  });

  it("refuses an import without its consent statement, field by field, and writes nothing", async () => {
    const file = mailchimpFile([["nobody@statement.example"]]);
    const noSource = await send(owner, IMPORT_ROUTES.run, file, {
      consentSource: "  ",
      consentDate: "2024-01-01",
    });
    expect(noSource.statusCode).toBe(400);
    expect(noSource.json().fields).toEqual({ consentSource: IMPORT_TEXTS.sourceRequired });
    const future = await send(owner, IMPORT_ROUTES.run, file, {
      consentSource: "A fair",
      consentDate: "2999-01-01",
    });
    expect(future.json().fields).toEqual({ consentDate: IMPORT_TEXTS.dateInFuture });
    const noDate = await send(owner, IMPORT_ROUTES.run, file, { consentSource: "A fair" });
    expect(noDate.json().fields).toEqual({ consentDate: IMPORT_TEXTS.dateRequired });
    expect(await countLike("subscriptions", "%@statement.example")).toBe(0);
  });

  it("refuses a file it cannot read, in words the importer can act on", async () => {
    const latin1 = Buffer.from('"Email Address","LEID"\r\n"jos\xe9@bad.example",1', "latin1");
    const notUtf8 = await send(owner, IMPORT_ROUTES.preview, latin1);
    expect([notUtf8.statusCode, notUtf8.json().message]).toEqual([400, IMPORT_TEXTS.notUtf8(2)]);
    const empty = await send(
      owner,
      IMPORT_ROUTES.preview,
      Buffer.from('"Email Address","LEID"\r\n'),
    );
    expect([empty.statusCode, empty.json().message]).toEqual([400, IMPORT_TEXTS.empty]);
    const broken = await send(owner, IMPORT_ROUTES.preview, Buffer.from('email\n"a@b.example\n'));
    expect(broken.statusCode).toBe(400);
    expect(broken.json().message).toBe(
      IMPORT_TEXTS.unreadable(2, "a quoted value is never closed."),
    );
    // The parser's own words quote the field, which may be an address: never shown or logged.
    const quoted = await send(
      owner,
      IMPORT_ROUTES.preview,
      Buffer.from('email\nx"secret@bad.example"\n'),
    );
    expect(quoted.statusCode).toBe(400);
    expect(quoted.body).not.toContain("secret@");
    expect(t.logs.join("")).not.toContain("secret@bad.example");
  });

  it("refuses a header of 39 MB of commas at once, naming the limit and its line", async () => {
    const commas = Buffer.alloc(39 * 1024 * 1024, ",");
    for (const path of [IMPORT_ROUTES.preview, IMPORT_ROUTES.dryRun]) {
      const response = await send(owner, path, commas);
      expect([response.statusCode, response.json().message]).toEqual([
        400,
        IMPORT_TEXTS.headerTooWide(1),
      ]);
    }
  });

  it("refuses a file past a limit at the line that passes it, as it arrives", async () => {
    const tooMany = `email\n${"a@rows.example\n".repeat(IMPORT_LIMITS.maxRows + 1)}`;
    const rows = await send(owner, IMPORT_ROUTES.preview, Buffer.from(tooMany));
    expect([rows.statusCode, rows.json().message]).toEqual([
      400,
      IMPORT_TEXTS.tooManyRows(IMPORT_LIMITS.maxRows + 2),
    ]);
    const unclosed = `email\r\nfirst@rows.example\r\n"${"a@rows.example\r\n".repeat(10_000)}`;
    const long = await send(owner, IMPORT_ROUTES.dryRun, Buffer.from(unclosed));
    expect([long.statusCode, long.json().message]).toEqual([400, IMPORT_TEXTS.lineTooLong(3)]);
    const latin1 = Buffer.from('"Email Address","LEID"\r\n"jos\xe9@bad.example",1', "latin1");
    const notUtf8 = await send(owner, IMPORT_ROUTES.run, latin1, STATEMENT);
    expect([notUtf8.statusCode, notUtf8.json().message]).toEqual([400, IMPORT_TEXTS.notUtf8(2)]);
    expect(await countLike("subscriptions", "%@bad.example")).toBe(0);
  });

  it("refuses a body holding more than its one file, rather than reading part of it", async () => {
    const file = new Blob([new Uint8Array(mailchimpFile([["one@parts.example"]]))]);
    const second = new Blob([new Uint8Array(mailchimpFile([["two@parts.example"]]))]);
    const bodies = [
      [
        ["file", file, "one.csv"],
        ["file", second, "two.csv"],
      ],
      [
        ["note", "a field first"],
        ["file", file, "one.csv"],
      ],
      [
        ["file", file, "one.csv"],
        ["note", "a field after"],
      ],
    ] as const;
    for (const parts of bodies) {
      const form = new FormData();
      for (const [name, value, filename] of parts) {
        if (typeof value === "string") form.append(name, value);
        else form.append(name, value, filename);
      }
      const request = new Request("http://localhost/", { method: "POST", body: form });
      const response = await t.app.inject({
        method: "POST",
        url: `${IMPORT_ROUTES.run}?${new URLSearchParams(STATEMENT)}`,
        headers: {
          cookie: owner.cookie,
          "x-xsrf-token": owner.token,
          "content-type": request.headers.get("content-type") ?? "",
        },
        payload: Buffer.from(await request.arrayBuffer()),
      });
      expect([response.statusCode, response.json().message]).toEqual([400, IMPORT_TEXTS.oneFile]);
    }
    expect(await countLike("subscriptions", "%@parts.example")).toBe(0);
  });

  it("reads a multipart body in time in step with its size, however near its content comes to a boundary", async () => {
    // Each value opens a line the way the body's boundary does (FormData's
    // own prefix), which a searcher that backtracks would try at each one.
    const near = '"\r\n------formdata-undici-0\r\n--\r\n------"';
    const file = (rows: number) =>
      Buffer.from(
        [
          '"Email Address","Note"',
          ...Array.from({ length: rows }, (_, row) => `"r${row}@multipart.example",${near}`),
        ].join("\r\n"),
      );
    const ROWS = 1_500;
    const bodies = new Map<number, Awaited<ReturnType<typeof multipartBody>>>();
    for (const rows of [ROWS, ROWS * 4]) bodies.set(rows, await multipartBody(file(rows), "a.csv"));
    await expectLinear(
      (rows) => bodies.get(rows) as Awaited<ReturnType<typeof multipartBody>>,
      async ({ payload, contentType }) => {
        const response = await t.app.inject({
          method: "POST",
          url: IMPORT_ROUTES.preview,
          headers: {
            cookie: owner.cookie,
            "x-xsrf-token": owner.token,
            "content-type": contentType,
          },
          payload,
        });
        expect(response.statusCode, response.body).toBe(200);
      },
      ROWS,
    );
  });

  it("refuses a row whose consent date is later than today or before 1990, in the dry run and the import", async () => {
    const d = "dates.example";
    moment = Date.parse("2026-03-01T12:00:00Z");
    try {
      const file = mailchimpFile([
        [`soon@${d}`, "2026-03-02 06:00:00"],
        [`later@${d}`, "2026-03-03 00:00:00"],
        [`far@${d}`, "2999-01-01 00:00:00"],
        [`epoch@${d}`, "1970-01-01 00:00:00"],
        [`first@${d}`, "1990-01-01 00:00:00"],
        [`undated@${d}`],
      ]);
      const refused = [
        {
          row: 3,
          address: `later@${d}`,
          outcome: "consentInFuture",
          reason: `${OUTCOME_LABELS.consentInFuture} (2026-03-03 00:00:00)`,
        },
        {
          row: 4,
          address: `far@${d}`,
          outcome: "consentInFuture",
          reason: `${OUTCOME_LABELS.consentInFuture} (2999-01-01 00:00:00)`,
        },
        {
          row: 5,
          address: `epoch@${d}`,
          outcome: "consentTooEarly",
          reason: `${OUTCOME_LABELS.consentTooEarly} (1970-01-01 00:00:00)`,
        },
      ];
      const report = await dryRun(file);
      expect(report).toMatchObject({ added: 3, refused: 3 });
      expect(report.rows).toEqual(refused);
      const result = await runImport(file);
      expect(result).toMatchObject({ added: 3, refused: 3 });
      expect(result.rows).toEqual(refused);
      const lines = await db
        .selectFrom("subscription_events")
        .innerJoin("subscriptions", "subscriptions.id", "subscription_events.subscription_id")
        .select(["subscriptions.email", "subscription_events.consent_date"])
        .where("subscriptions.email", "like", `%@${d}`)
        .orderBy("subscriptions.email")
        .execute();
      // A day ahead of the server's clock is still today somewhere.
      expect(lines).toEqual([
        { email: `first@${d}`, consent_date: "1990-01-01T00:00:00.000Z" },
        { email: `soon@${d}`, consent_date: "2026-03-02T06:00:00.000Z" },
        { email: `undated@${d}`, consent_date: STATEMENT.consentDate },
      ]);
    } finally {
      moment = undefined;
    }
  });

  it("is an owner's act: viewers and editors are refused every step", async () => {
    const file = mailchimpFile([["gate@gate.example"]]);
    for (const client of [viewer, editor]) {
      for (const path of [IMPORT_ROUTES.preview, IMPORT_ROUTES.dryRun, IMPORT_ROUTES.run]) {
        const response = await send(client, path, file, STATEMENT);
        expect(response.statusCode, path).toBe(403);
      }
    }
    expect(await countLike("subscriptions", "%@gate.example")).toBe(0);
  });

  it("leaves no half import when the file fails partway", async () => {
    const d = "halfway.example";
    // The database refuses one address deep in the file, after two batches went in.
    const poison = `poison@${d}`;
    if (engine.engine === "postgres") {
      await sql
        .raw(`create function refuse_poison() returns trigger language plpgsql as $$
          begin if new.email = '${poison}' then raise exception 'deliberate failure'; end if; return new; end $$`)
        .execute(db);
      await sql
        .raw(
          "create trigger refuse_poison before insert on subscriptions for each row execute function refuse_poison()",
        )
        .execute(db);
    } else {
      await sql
        .raw(`create trigger refuse_poison before insert on subscriptions
          when new.email = '${poison}' begin select raise(abort, 'deliberate failure'); end`)
        .execute(db);
    }
    const rows = Array.from({ length: 1500 }, (_, n) => [`person-${n}@${d}`]);
    rows.splice(1200, 0, [poison]);
    const importsBefore = await db.selectFrom("subscriber_imports").select("id").execute();
    const response = await send(owner, IMPORT_ROUTES.run, mailchimpFile(rows), STATEMENT);
    expect(response.statusCode).toBe(500);
    expect(response.body).not.toContain("deliberate");
    expect(await countLike("subscriptions", `%@${d}`)).toBe(0);
    expect(await db.selectFrom("subscriber_imports").select("id").execute()).toEqual(importsBefore);
    await sql
      .raw(`drop trigger refuse_poison${engine.engine === "postgres" ? " on subscriptions" : ""}`)
      .execute(db);
    // Without the failure, the same file goes in whole.
    const result = await runImport(mailchimpFile(rows));
    expect(result.added).toBe(1501);
  });

  it("keeps each person's name, tags and fields, says what each column becomes, and an editor corrects them", async () => {
    const d = "people.example";
    // Mailchimp: the names, the TAGS cell's quoted tags and the other columns as fields;
    // its consent bookkeeping and the sign-up's traces are left out, each with its reason.
    const mailchimp = Buffer.from(
      [
        '"Email Address","First Name","Last Name","Company","MEMBER_RATING","OPTIN_TIME","CONFIRM_TIME","CONFIRM_IP","LEID","TAGS"',
        `"ana@${d}","Ana","García","Northwind",4,"2024-03-05 14:02:11","2024-03-05 14:05:40","203.0.113.7",101,"""Client"",""2024 forum, Madrid"""`,
      ].join("\n"),
    );
    const read = await preview(mailchimp);
    expect(read.roles).toEqual([
      "email",
      "firstName",
      "lastName",
      "field",
      "field",
      "skip",
      "date",
      "skip",
      "skip",
      "tags",
    ]);
    expect(Object.keys(read.skipped)).toEqual(["OPTIN_TIME", "CONFIRM_IP", "LEID"]);
    await runImport(mailchimp, {}, "mailchimp.csv");
    // Ghost: a whole name, split at its first space, and its labels as tags.
    await runImport(
      Buffer.from(
        [
          "id,email,name,note,subscribed_to_emails,created_at,labels,tiers",
          `a1,member@${d},Member van Dyke,,true,2024-02-02T10:00:00.000Z,"Newsletter, Events",Free`,
        ].join("\n"),
      ),
      {},
      "ghost.csv",
    );
    // Another file: its columns found by their names.
    const other = Buffer.from(
      ["Name,E-mail,Tags,Company", `Jon Park,jon@${d},Prospect,Contoso`].join("\n"),
    );
    expect((await preview(other)).roles).toEqual(["name", "email", "tags", "field"]);
    await runImport(other, {}, "other.csv");

    const idOf = async (email: string) =>
      (
        await db
          .selectFrom("subscriptions")
          .select("id")
          .where("email", "=", email)
          .executeTakeFirstOrThrow()
      ).id;
    const person = async (email: string) => {
      const detail: SubscriberDetail = (
        await viewer.request("GET", subscriberPath(await idOf(email)))
      ).json();
      const { name, firstName, lastName, tags, fields } = detail;
      return { name, firstName, lastName, tags, fields };
    };
    expect(await person(`ana@${d}`)).toEqual({
      name: "Ana García",
      firstName: "Ana",
      lastName: "García",
      tags: ["2024 forum, Madrid", "Client"],
      fields: [
        { name: "Company", value: "Northwind" },
        { name: "MEMBER_RATING", value: "4" },
      ],
    });
    expect(await person(`member@${d}`)).toEqual({
      name: "Member van Dyke",
      firstName: "Member",
      lastName: "van Dyke",
      tags: ["Events", "Newsletter"],
      fields: [{ name: "tiers", value: "Free" }],
    });
    expect(await person(`jon@${d}`)).toMatchObject({ name: "Jon Park", tags: ["Prospect"] });

    // The list finds a person by their name, accents aside.
    const found: SubscriberList = (
      await viewer.request("GET", withQuery(SUBSCRIBER_ROUTES.list, { q: "garcia" }))
    ).json();
    expect(found.items.map((item) => [item.email, item.name])).toEqual([
      [`ana@${d}`, "Ana García"],
    ]);

    // An editor corrects the name, the tags and the fields; a repeated tag is
    // kept once, a tag may hold a comma, a field left out is erased; it is audited.
    const anaId = await idOf(`ana@${d}`);
    const edit = (client: ConsoleClient, body: object) =>
      client.request("PUT", subscriberPath(anaId, "person"), body);
    const none = { lastName: "", tags: [], fields: [] };
    expect((await edit(viewer, { ...none, firstName: "A" })).statusCode).toBe(403);
    for (const [refusedBody, field] of [
      [{ ...none, firstName: "Ana", tags: ["x".repeat(51)] }, "tags"],
      [{ ...none, firstName: "Ana", fields: [{ name: "", value: "x" }] }, "name"],
      [{ ...none, firstName: "Ana", fields: [{ name: "a", value: "x".repeat(501) }] }, "value"],
      [
        {
          ...none,
          firstName: "Ana",
          fields: [
            { name: "Plan", value: "a" },
            { name: "plan", value: "b" },
          ],
        },
        "name",
      ],
      [
        {
          ...none,
          firstName: "Ana",
          fields: Array.from({ length: 51 }, (_, n) => ({ name: `f${n}`, value: "" })),
        },
        "fields",
      ],
      [{ firstName: "Ana", lastName: "", tags: [] }, "fields"],
    ] as const) {
      const refused = await edit(editor, refusedBody);
      expect(refused.statusCode, JSON.stringify(refusedBody).slice(0, 80)).toBe(400);
      expect(Object.keys(refused.json().fields ?? {}), field).toContain(field);
    }
    const saved = await edit(editor, {
      firstName: " Ana María ",
      lastName: "García",
      tags: ["Client", "client", "  VIP   list ", "Big, Corp"],
      fields: [
        { name: "Company", value: "Northwind Traders" },
        { name: "Sector", value: "Energy" },
      ],
    });
    expect(saved.statusCode, saved.body).toBe(200);
    expect(saved.json()).toMatchObject({
      name: "Ana María García",
      tags: ["Big, Corp", "Client", "VIP list"],
      fields: [
        { name: "Company", value: "Northwind Traders" },
        { name: "Sector", value: "Energy" },
      ],
    });
    const audit = await db
      .selectFrom("audit_log")
      .select(["action", "target"])
      .where("action", "=", "subscriber-edited")
      .execute();
    expect(audit).toEqual([{ action: "subscriber-edited", target: `subscription:${anaId}` }]);

    // The export carries them.
    const csv = csvRecords(
      (await owner.request("GET", withQuery(SUBSCRIBER_ROUTES.export, { q: `@${d}` }))).body,
    );
    const ana = csv.find((row) => row.address === `ana@${d}`);
    expect(ana).toMatchObject({
      first_name: "Ana María",
      last_name: "García",
      tags: "Big, Corp\nClient\nVIP list",
    });
    // MEMBER_RATING, left out of the edit, is erased.
    expect(JSON.parse(ana?.fields ?? "{}")).toEqual({
      Company: "Northwind Traders",
      Sector: "Energy",
    });

    // Erased, nothing of the person stays.
    const erased = await owner.request("DELETE", subscriberPath(anaId), { email: `ana@${d}` });
    expect(erased.statusCode).toBe(204);
    const tagsLeft = await db
      .selectFrom("subscription_tags")
      .select("tag")
      .where("subscription_id", "=", anaId)
      .execute();
    expect(tagsLeft).toEqual([]);
  });

  it("imports 100,000 rows", async () => {
    const d = "bulk.example";
    const rows = Array.from({ length: 100_000 }, (_, n) => [
      `reader-${n}@${d}`,
      "2024-01-01 09:00:00",
    ]);
    const started = performance.now();
    const result = await runImport(mailchimpFile(rows));
    const seconds = (performance.now() - started) / 1000;
    console.log(`${engine.engine}: 100,000 rows imported in ${seconds.toFixed(1)} s`);
    expect(result.added).toBe(100_000);
    expect(await countLike("subscriptions", `%@${d}`)).toBe(100_000);
    const events = await db
      .selectFrom("subscription_events")
      .select((eb) => eb.fn.countAll<number | string>().as("n"))
      .where("import_id", "=", result.importId)
      .executeTakeFirstOrThrow();
    expect(Number(events.n)).toBe(100_000);
  }, 120_000);
});

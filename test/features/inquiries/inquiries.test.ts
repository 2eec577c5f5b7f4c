/**
 * The inquiries inbox's API on both engines. Each test
 * sends its own inquiries, marked with a word of its own, and filters by that
 * word, so the tests do not see each other's rows.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { withQuery } from "../../../src/admin/api/client.ts";
import { storeInquiry } from "../../../src/server/features/inquiries/index.ts";
import { AUTH_TEXTS } from "../../../src/shared/admin/auth.ts";
import { ERASURE_TEXTS } from "../../../src/shared/admin/erasure.ts";
import {
  INBOX_PAGE_SIZE,
  INBOX_TEXTS,
  INQUIRY_PATHS,
  INQUIRY_STATUSES,
  type InquiryDetail,
  type InquiryPage,
  inquiryPath,
  replyLink,
} from "../../../src/shared/admin/inquiries.ts";
import type { Inquiry } from "../../../src/shared/schemas.ts";
import { openSession, post, startApp, type TestApp } from "../../support/app.ts";
import { type ConsoleClient, createAccount, signIn } from "../../support/console.ts";
import { csvRows } from "../../support/csv.ts";
import { ENGINES } from "../../support/engines.ts";
import { VALID_INQUIRY } from "../../support/fixtures.ts";

describe("the reply link", () => {
  it("fills the subject, encoded, and keeps the address readable", () => {
    expect(replyLink({ email: "ada+work@example.com", inquiryType: "App development" })).toBe(
      "mailto:ada%2Bwork@example.com?subject=Re%3A%20Your%20inquiry%20about%20App%20development",
    );
  });
});

describe.each(ENGINES)("the inquiries inbox on $engine", (engine) => {
  let t: TestApp;
  let viewer: ConsoleClient;
  let editor: ConsoleClient;
  let editorId: number;
  let marks = 0;

  beforeAll(async () => {
    t = await startApp(engine);
    await createAccount(t.database, "viewer", "inbox-viewer@firm.example");
    editorId = (await createAccount(t.database, "editor", "inbox-editor@firm.example")).id;
    viewer = await signIn(t.app, "inbox-viewer@firm.example");
    editor = await signIn(t.app, "inbox-editor@firm.example");
  });
  afterAll(() => t.close());

  /** A word only this test's inquiries carry (in their comments). */
  const newMark = () => `mark${++marks}x${engine.engine}`;

  async function send(mark: string, fields: Partial<Inquiry> = {}): Promise<number> {
    return storeInquiry(t.app, {
      ...VALID_INQUIRY,
      comments: `${VALID_INQUIRY.comments} ${mark}`,
      ...fields,
    });
  }

  async function receivedAt(id: number, at: string) {
    await t.database.db
      .updateTable("inquiries")
      .set({ created_at: at })
      .where("id", "=", id)
      .execute();
  }

  async function list(query: Record<string, string | number | undefined>): Promise<InquiryPage> {
    const response = await viewer.request("GET", withQuery(INQUIRY_PATHS.list, query));
    expect(response.statusCode).toBe(200);
    return response.json();
  }

  const idsOf = (page: InquiryPage) => page.inquiries.map((inquiry) => inquiry.id);

  async function auditOf(action: string) {
    return t.database.db
      .selectFrom("audit_log")
      .selectAll()
      .where("action", "=", action)
      .orderBy("id", "desc")
      .execute();
  }

  describe("the list", () => {
    it("filters by type, by status and by text", async () => {
      const mark = newMark();
      const learning = await send(mark, { inquiryType: "Machine Learning" });
      const automation = await send(mark, { inquiryType: "Automation" });
      const closed = await send(mark, { inquiryType: "Automation" });
      await t.database.db
        .updateTable("inquiries")
        .set({ status: "closed" })
        .where("id", "=", closed)
        .execute();

      expect(idsOf(await list({ q: mark }))).toHaveLength(3);
      expect(idsOf(await list({ q: mark, type: "Machine Learning" }))).toEqual([learning]);
      expect(idsOf(await list({ q: mark, status: "closed" }))).toEqual([closed]);
      expect(idsOf(await list({ q: mark, type: "Automation", status: "new" }))).toEqual([
        automation,
      ]);
    });

    it("finds text in the name, company, address and comments, whatever its case", async () => {
      const mark = newMark();
      const ada = await send(mark, {
        firstName: "Ada",
        lastName: "Lovelace",
        company: "Analytical Engines",
        email: "ada@engines.example",
      });
      await send(mark, { firstName: "Charles", lastName: "Babbage", company: "Difference Ltd" });

      for (const text of ["LOVELACE", "ada lovelace", "analytical", "ADA@ENGINES", "Engines"]) {
        expect({ text, ids: idsOf(await list({ q: `${mark} ${text}` })) }).toEqual({
          text,
          ids: [ada],
        });
      }
      expect(idsOf(await list({ q: `${mark.toUpperCase()} nobody` }))).toEqual([]);
    });

    it("finds text whatever its accents and case, on either side", async () => {
      const mark = newMark();
      const garcia = await send(mark, { firstName: "María", lastName: "García" });
      const elodie = await send(mark, { firstName: "ÉLODIE", lastName: "Durand" });
      const orsted = await send(mark, { company: "Ørsted Energi" });
      const nguyen = await send(mark, { lastName: "Nguyễn" });
      await send(mark, { firstName: "Gary", lastName: "Cia" });

      const cases: [string, number[]][] = [
        ["garcia", [garcia]],
        ["GARCÍA", [garcia]],
        ["maria garcia", [garcia]],
        ["elodie", [elodie]],
        ["Élodie", [elodie]],
        ["ørsted", [orsted]],
        ["ØRSTED", [orsted]],
        ["nguyen", [nguyen]],
      ];
      for (const [text, ids] of cases) {
        expect({ text, ids: idsOf(await list({ q: `${mark} ${text}` })) }).toEqual({ text, ids });
      }
    });

    it("takes the search's % and _ literally", async () => {
      const mark = newMark();
      const percent = await send(mark, { company: "Growth 100% Ltd" });
      await send(mark, { company: "Growth 1000 Ltd" });
      expect(idsOf(await list({ q: `${mark} 100%` }))).toEqual([percent]);
      expect(idsOf(await list({ q: `${mark} 1_0` }))).toEqual([]);
    });

    it("lists the newest first, by when they were received", async () => {
      const mark = newMark();
      const older = await send(mark);
      const newer = await send(mark);
      const newest = await send(mark);
      await receivedAt(older, "2030-01-01T09:00:00.000Z");
      await receivedAt(newer, "2030-01-02T09:00:00.000Z");
      await receivedAt(newest, "2030-01-02T10:00:00.000Z");
      // The first sent is now the newest received: the time decides, not the id.
      await receivedAt(older, "2030-01-03T09:00:00.000Z");

      const page = await list({ q: mark });
      expect(idsOf(page)).toEqual([older, newest, newer]);
      expect(page.inquiries[0]?.receivedAt).toBe("2030-01-03T09:00:00.000Z");
    });

    it("pages by fifty with the total", async () => {
      const mark = newMark();
      const sent: number[] = [];
      for (let n = 0; n < INBOX_PAGE_SIZE + 5; n++) sent.push(await send(mark));

      const first = await list({ q: mark });
      const second = await list({ q: mark, page: 2 });
      expect(first).toMatchObject({ page: 1, pageSize: 50, total: 55 });
      expect(first.inquiries).toHaveLength(50);
      expect(second).toMatchObject({ page: 2, total: 55 });
      expect(second.inquiries).toHaveLength(5);
      expect([...idsOf(first), ...idsOf(second)].sort((a, b) => a - b)).toEqual(sent);
    });

    it("refuses a page below 1, a type that is not one line, an unknown status, and an overlong search", async () => {
      for (const query of [{ page: 0 }, { type: "Garden\ning" }, { status: "lost" }]) {
        const response = await viewer.request("GET", withQuery(INQUIRY_PATHS.list, query));
        expect(response.statusCode).toBe(400);
      }
      // Any type an inquiry may carry can be asked for (an old one keeps a type since
      // withdrawn): one no inquiry has finds none.
      const unknown = await viewer.request(
        "GET",
        withQuery(INQUIRY_PATHS.list, { type: "Gardening" }),
      );
      expect(unknown.statusCode).toBe(200);
      expect(unknown.json().inquiries).toEqual([]);
      const long = await viewer.request(
        "GET",
        withQuery(INQUIRY_PATHS.list, { q: "x".repeat(201) }),
      );
      expect(long.statusCode).toBe(400);
      expect(long.json().fields).toEqual({ q: expect.stringContaining("200") });
    });

    it("counts per status within the type and text filter, whatever the status filter", async () => {
      const mark = newMark();
      const [a, b] = [await send(mark), await send(mark)];
      await send(mark);
      await send(mark, { inquiryType: "Automation" });
      await editor.request("PUT", inquiryPath(INQUIRY_PATHS.status, a), { status: "answered" });
      await editor.request("PUT", inquiryPath(INQUIRY_PATHS.status, b), { status: "spam" });

      const byText = await list({ q: mark });
      expect(byText.counts).toEqual({ new: 2, "in-progress": 0, answered: 1, closed: 0, spam: 1 });
      expect(byText.total).toBe(4);
      const byType = await list({ q: mark, type: "Machine Learning", status: "answered" });
      expect(byType.counts).toEqual({ new: 1, "in-progress": 0, answered: 1, closed: 0, spam: 1 });
      expect(byType.total).toBe(1);
      expect(Object.keys(byType.counts)).toEqual([...INQUIRY_STATUSES]);
    });

    it("counts every inquiry's status for the navigation's new-inquiry badge", async () => {
      const before = (await viewer.request("GET", INQUIRY_PATHS.counts)).json().counts;
      const id = await send(newMark());
      await send(newMark());
      await editor.request("PUT", inquiryPath(INQUIRY_PATHS.status, id), { status: "closed" });
      const after = (await viewer.request("GET", INQUIRY_PATHS.counts)).json().counts;
      expect(after.new - before.new).toBe(1);
      expect(after.closed - before.closed).toBe(1);
    });
  });

  describe("one inquiry", () => {
    it("answers every field, its status, assignee and notes", async () => {
      const id = await send(newMark());
      const response = await viewer.request("GET", inquiryPath(INQUIRY_PATHS.one, id));
      expect(response.statusCode).toBe(200);
      const { comments, ...fields } = VALID_INQUIRY;
      expect(response.json()).toMatchObject({
        id,
        ...fields,
        comments: expect.stringContaining(comments),
        receivedAt: expect.stringMatching(/^\d{4}-\d\d-\d\dT/),
        status: "new",
        assignee: null,
        notes: [],
      });
    });

    it("answers 404 with a sentence for an unknown inquiry", async () => {
      const response = await viewer.request("GET", inquiryPath(INQUIRY_PATHS.one, 999_999));
      expect(response.statusCode).toBe(404);
      expect(response.json()).toEqual({ message: INBOX_TEXTS.notFound });
    });
  });

  describe("handling", () => {
    it("changes the status and audits from and to", async () => {
      const id = await send(newMark());
      const response = await editor.request("PUT", inquiryPath(INQUIRY_PATHS.status, id), {
        status: "answered",
      });
      expect(response.statusCode).toBe(200);
      expect(response.json()).toMatchObject({ id, status: "answered" });
      const [entry] = await auditOf("inquiry-status-changed");
      expect(entry).toMatchObject({
        actor: "inbox-editor@firm.example",
        target: `inquiry:${id}`,
      });
      expect(JSON.parse(entry?.detail ?? "{}")).toEqual({ from: "new", to: "answered" });

      const refused = await editor.request("PUT", inquiryPath(INQUIRY_PATHS.status, id), {
        status: "lost",
      });
      expect(refused.statusCode).toBe(400);
      expect(refused.json().fields).toEqual({ status: "Choose one of the statuses." });
      const missing = await editor.request("PUT", inquiryPath(INQUIRY_PATHS.status, 999_999), {
        status: "closed",
      });
      expect(missing.statusCode).toBe(404);
    });

    it("assigns to a console account, refuses an unknown one, and unassigns", async () => {
      const mark = newMark();
      const id = await send(mark);
      const path = inquiryPath(INQUIRY_PATHS.assignee, id);

      const assigned = await editor.request("PUT", path, { assigneeId: editorId });
      expect(assigned.statusCode).toBe(200);
      const person = { id: editorId, name: "The editor", email: "inbox-editor@firm.example" };
      expect((assigned.json() as InquiryDetail).assignee).toEqual(person);
      expect((await list({ q: mark })).inquiries[0]?.assignee).toEqual(person);
      const [entry] = await auditOf("inquiry-assigned");
      expect(entry?.target).toBe(`inquiry:${id}`);
      expect(JSON.parse(entry?.detail ?? "{}")).toEqual({ assignee: person.email });

      const unknown = await editor.request("PUT", path, { assigneeId: 999_999 });
      expect(unknown.statusCode).toBe(400);
      expect(unknown.json()).toEqual({ message: INBOX_TEXTS.unknownPerson });
      const kept = await viewer.request("GET", inquiryPath(INQUIRY_PATHS.one, id));
      expect((kept.json() as InquiryDetail).assignee).toEqual(person);

      const unassigned = await editor.request("PUT", path, { assigneeId: null });
      expect(unassigned.statusCode).toBe(200);
      expect((unassigned.json() as InquiryDetail).assignee).toBeNull();
      expect((await auditOf("inquiry-unassigned"))[0]?.target).toBe(`inquiry:${id}`);

      const missing = await editor.request("PUT", inquiryPath(INQUIRY_PATHS.assignee, 999_999), {
        assigneeId: editorId,
      });
      expect(missing.statusCode).toBe(404);
    });

    it("adds notes with their author and time, oldest first", async () => {
      const id = await send(newMark());
      const path = inquiryPath(INQUIRY_PATHS.notes, id);
      const first = await editor.request("POST", path, { body: "  Called them back.  " });
      expect(first.statusCode).toBe(201);
      const second = await editor.request("POST", path, { body: "Sent a proposal." });
      const { notes } = second.json() as InquiryDetail;
      expect(notes).toEqual([
        expect.objectContaining({ author: "The editor", body: "Called them back." }),
        expect.objectContaining({ author: "The editor", body: "Sent a proposal." }),
      ]);
      expect(Date.now() - Date.parse(notes[0]?.createdAt ?? "")).toBeLessThan(60_000);
      const [entry] = await auditOf("inquiry-note-added");
      expect(entry?.target).toBe(`inquiry:${id}`);
      expect(entry?.detail).not.toContain("proposal");
    });

    it("refuses an empty or overlong note and a note on an unknown inquiry", async () => {
      const path = inquiryPath(INQUIRY_PATHS.notes, await send(newMark()));
      const empty = await editor.request("POST", path, { body: "   " });
      expect(empty.statusCode).toBe(400);
      expect(empty.json().fields).toEqual({ body: INBOX_TEXTS.noteEmpty });
      const long = await editor.request("POST", path, { body: "x".repeat(5001) });
      expect(long.statusCode).toBe(400);
      expect(long.json().fields).toEqual({ body: INBOX_TEXTS.noteTooLong });
      expect((await editor.request("POST", path, { body: "x".repeat(5000) })).statusCode).toBe(201);
      const missing = await editor.request("POST", inquiryPath(INQUIRY_PATHS.notes, 999_999), {
        body: "Hello",
      });
      expect(missing.statusCode).toBe(404);
      expect(missing.json()).toEqual({ message: INBOX_TEXTS.notFound });
    });

    it("lists the console's people to assign to", async () => {
      const response = await viewer.request("GET", INQUIRY_PATHS.assignees);
      expect(response.statusCode).toBe(200);
      expect(response.json().people).toEqual(
        expect.arrayContaining([
          { id: editorId, name: "The editor", email: "inbox-editor@firm.example" },
        ]),
      );
      expect(Object.keys(response.json().people[0]).sort()).toEqual(["email", "id", "name"]);
    });
  });

  describe("the CSV export", () => {
    it("exports the current filter, keeps formulas as text, and audits it", async () => {
      const mark = newMark();
      const formula = await send(mark, { firstName: '=HYPERLINK("x")' });
      await send(mark, { inquiryType: "Automation" });
      await send(newMark());

      const filter = { q: mark, type: "Machine Learning" };
      const response = await viewer.request("GET", withQuery(INQUIRY_PATHS.export, filter));
      expect(response.statusCode).toBe(200);
      expect(response.headers["content-type"]).toBe("text/csv; charset=utf-8");
      expect(response.headers["content-disposition"]).toMatch(
        /^attachment; filename="inquiries-\d{4}-\d\d-\d\d\.csv"$/,
      );
      const [header, ...rows] = csvRows(response.body);
      expect(header).toEqual([
        "id",
        "received_at",
        "status",
        "inquiry_type",
        "first_name",
        "last_name",
        "company",
        "job_title",
        "email",
        "phone_number",
        "comments",
        "assignee",
        // The visit that brought each inquiry, empty where unknown (test/site/lead-source.test.ts).
        "source_entry_page",
        "source_referrer",
        "source_channel",
        "source_utm_source",
        "source_utm_medium",
        "source_utm_campaign",
      ]);
      expect(rows).toHaveLength(1);
      expect(rows[0]?.[0]).toBe(String(formula));
      expect(rows[0]?.[4]).toBe(`'=HYPERLINK("x")`);

      const [entry] = await auditOf("inquiries-exported");
      expect(entry?.actor).toBe("inbox-viewer@firm.example");
      expect(JSON.parse(entry?.detail ?? "{}")).toEqual({ filter, rows: 1 });
    });
  });

  describe("an owner, on the person's request", () => {
    it("erases every inquiry from the address with its notes and mail, and nothing of anyone else's", async () => {
      await createAccount(t.database, "owner", "inbox-owner@firm.example");
      const owner = await signIn(t.app, "inbox-owner@firm.example");
      const session = await openSession(t.app);
      const sendComment = async (email: string) => {
        const response = await post(t.app, session, "/api/v1/send-comment", {
          ...VALID_INQUIRY,
          email,
        });
        expect(response.statusCode, response.body).toBe(200);
        return response.json().id as number;
      };
      const address = `ada.erased.${engine.engine}@example.com`;
      const first = await sendComment(address);
      const second = await sendComment(address.toUpperCase());
      const other = await sendComment(`someone.else.${engine.engine}@example.com`);
      await editor.request("POST", inquiryPath(INQUIRY_PATHS.notes, first), {
        body: "Called back.",
      });
      const mailMentioning = async (text: string) =>
        (await t.database.db.selectFrom("outbox").select("message").execute()).filter((row) =>
          row.message.toLowerCase().includes(text),
        ).length;
      expect(await mailMentioning(address)).toBeGreaterThanOrEqual(2);
      const othersMail = await mailMentioning(`someone.else.${engine.engine}`);
      expect(othersMail).toBeGreaterThan(0);
      const url = inquiryPath(INQUIRY_PATHS.one, first);

      const editorTries = await editor.request("DELETE", url, { email: address });
      expect(editorTries.statusCode).toBe(403);
      const mistyped = await owner.request("DELETE", url, { email: `x${address}` });
      expect(mistyped.statusCode).toBe(400);
      expect(mistyped.json().fields).toEqual({ email: ERASURE_TEXTS.confirmMismatch });
      expect((await viewer.request("GET", url)).statusCode).toBe(200);

      const erased = await owner.request("DELETE", url, { email: ` ${address.toUpperCase()} ` });
      expect(erased.statusCode, erased.body).toBe(200);
      expect(erased.json()).toEqual({ inquiries: 2, mailDeleted: expect.any(Number) });
      expect(erased.json().mailDeleted).toBeGreaterThanOrEqual(2);
      for (const id of [first, second]) {
        expect((await viewer.request("GET", inquiryPath(INQUIRY_PATHS.one, id))).statusCode).toBe(
          404,
        );
      }
      expect(await mailMentioning(address)).toBe(0);
      const notes = await t.database.db
        .selectFrom("inquiry_notes")
        .select("id")
        .where("inquiry_id", "=", first)
        .execute();
      expect(notes).toEqual([]);
      expect((await viewer.request("GET", inquiryPath(INQUIRY_PATHS.one, other))).statusCode).toBe(
        200,
      );
      expect(await mailMentioning(`someone.else.${engine.engine}`)).toBe(othersMail);

      const [entry] = await auditOf("inquiry-erased");
      expect(entry?.actor).toBe("inbox-owner@firm.example");
      expect(entry?.target).toBe(`inquiry:${first}`);
      expect(JSON.parse(entry?.detail ?? "{}")).toEqual(erased.json());
      expect(entry?.detail).not.toContain(address);
    });
  });

  describe("a viewer", () => {
    it("reads but gets 403 on every write", async () => {
      const id = await send(newMark());
      const writes: [string, string, unknown][] = [
        ["PUT", INQUIRY_PATHS.status, { status: "closed" }],
        ["PUT", INQUIRY_PATHS.assignee, { assigneeId: null }],
        ["POST", INQUIRY_PATHS.notes, { body: "Not mine to write." }],
      ];
      for (const [method, path, body] of writes) {
        const response = await viewer.request(method, inquiryPath(path, id), body);
        expect({ path, status: response.statusCode }).toEqual({ path, status: 403 });
        expect(response.json()).toEqual({ message: AUTH_TEXTS.roleTooWeak });
      }
      const after = await viewer.request("GET", inquiryPath(INQUIRY_PATHS.one, id));
      expect(after.json()).toMatchObject({ status: "new", assignee: null, notes: [] });
    });
  });
});

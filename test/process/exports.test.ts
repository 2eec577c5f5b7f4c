import { spawn } from "node:child_process";
import { once } from "node:events";
import { mkdtempSync, readFileSync, statSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { EXPORT_COLUMNS, storeInquiry } from "../../src/server/features/inquiries/index.ts";
import { storeSubscription } from "../../src/server/features/subscriptions/index.ts";
import { CONSENT_VIA } from "../../src/shared/admin/subscribers.ts";
import { startApp } from "../support/app.ts";
import { csvRecords } from "../support/csv.ts";
import { SQLITE_ONLY, type TestDatabase } from "../support/engines.ts";
import { nodeArgs } from "../support/entry.ts";
import { VALID_INQUIRY } from "../support/fixtures.ts";
import { unsubscribeByOneClick } from "../support/subscription-links.ts";

async function runExport(
  what: "subscribers" | "inquiries",
  env: Record<string, string>,
  out = join(mkdtempSync(join(tmpdir(), "export-")), `${what}.csv`),
) {
  const child = spawn(
    process.execPath,
    [...nodeArgs("src/server/cli/export.ts"), what, "--out", out],
    {
      env: { ...process.env, ...env },
      stdio: ["ignore", "ignore", "pipe"],
    },
  );
  let stderr = "";
  child.stderr?.on("data", (chunk) => {
    stderr += String(chunk);
  });
  const [code] = await once(child, "exit");
  expect(code, stderr).toBe(0);
  return {
    rows: csvRecords(readFileSync(out, "utf8")),
    mode: statSync(out).mode & 0o777,
    stderr,
  };
}

const TRICKY = {
  ...VALID_INQUIRY,
  company: 'Smith, Jones & "Partners"',
  comments: 'Line one, with a comma\nLine two with "quotes"',
};

/** A name a spreadsheet would run as a formula. */
const FORMULA_NAME = '=HYPERLINK("https://evil.example","Click")';

describe.each(SQLITE_ONLY)("CSV exports on $engine", (engine) => {
  let testDb: TestDatabase;
  beforeAll(async () => {
    testDb = await engine.create();
    // Written as the site writes them, by an instance on the export's database.
    const t = await startApp(engine, {}, { shared: testDb });
    try {
      await storeSubscription(t.app, "first@example.com", CONSENT_VIA.website);
      const leaving = await storeSubscription(t.app, "leaving@example.com", CONSENT_VIA.website);
      if (leaving) await unsubscribeByOneClick(t, leaving.id);
      await storeSubscription(t.app, "second@example.com", CONSENT_VIA.website);
      // Double opt-in: asked, not yet confirmed, so not yet a subscriber to mail.
      await storeSubscription(t.app, "unconfirmed@example.com", CONSENT_VIA.website, {
        mustConfirm: true,
      });
      await storeInquiry(t.app, TRICKY);
      await storeInquiry(t.app, { ...VALID_INQUIRY, firstName: FORMULA_NAME });
    } finally {
      await t.close();
    }
  });
  afterAll(() => testDb.drop());

  it("subscribers:export writes the active, confirmed subscribers with when they subscribed", async () => {
    const { rows, stderr } = await runExport("subscribers", testDb.env);
    expect(rows.map((row) => row.email)).toEqual(["first@example.com", "second@example.com"]);
    for (const row of rows)
      expect(new Date(String(row.subscribed_at)).toISOString()).toBe(row.subscribed_at);
    expect(stderr).toContain("wrote 2 subscribers");
  });

  it("inquiries:export writes every field as the console's export does, quoting commas, quotes and line breaks", async () => {
    const { rows } = await runExport("inquiries", testDb.env);
    expect(rows).toHaveLength(2);
    const tricky = rows.find((row) => row.company === TRICKY.company);
    expect(tricky).toMatchObject({
      status: "new",
      first_name: TRICKY.firstName,
      last_name: TRICKY.lastName,
      job_title: TRICKY.jobTitle,
      email: TRICKY.email,
      // A phone number can run nothing, so it is left as typed (no apostrophe).
      phone_number: TRICKY.phoneNumber,
      inquiry_type: TRICKY.inquiryType,
      comments: TRICKY.comments,
      assignee: "",
    });
    expect(Object.keys(rows[0] ?? {})).toEqual([...EXPORT_COLUMNS]);
  });

  it("writes the file for the site's user alone, even over one readable by others", async () => {
    expect((await runExport("subscribers", testDb.env)).mode.toString(8)).toBe("600");
    const existing = join(mkdtempSync(join(tmpdir(), "export-")), "old.csv");
    writeFileSync(existing, "", { mode: 0o644 });
    expect((await runExport("inquiries", testDb.env, existing)).mode.toString(8)).toBe("600");
  });

  it("keeps a typed formula as text", async () => {
    const { rows } = await runExport("inquiries", testDb.env);
    expect(rows.map((row) => row.first_name)).toContain(`'${FORMULA_NAME}`);
  });
});

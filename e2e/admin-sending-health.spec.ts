/**
 * In the browser, on a server of its own that asks a DNS server on the
 * loopback about the firm's domain: the owner's Sending health page shows
 * each check with its state in words, the exact record to publish where one
 * is missing, what came back about a sent issue, and what the bounce
 * mailbox set aside with why. It passes axe, and at 375 px nothing but the
 * figures' table scrolls sideways. With `npm run screenshots:console` it
 * also writes the page's screenshots.
 */
import { generateKeyPairSync } from "node:crypto";
import { mkdirSync, mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { dkimPublicKey } from "../src/server/features/deliverability/domain-checks.ts";
import { type NewReport, recordReport } from "../src/server/features/deliverability/index.ts";
import { setAside } from "../src/server/features/deliverability/set-aside.ts";
import { UNVERIFIED } from "../src/server/features/deliverability/trace.ts";
import type { DatabaseHandle } from "../src/server/platform/db/connection.ts";
import { startDns, type TestDns } from "../test/support/dns-server.ts";
import { expectNoAxeViolations } from "./support/axe.ts";
import { signInToConsole } from "./support/console.ts";
import { expectNoSidewaysScroll } from "./support/page.ts";
import { onPreparedServer, writeSentCopies, writeSentIssue } from "./support/prepared-database.ts";
import { expect, type Page, test } from "./support/test.ts";

const DOMAIN = "meridian.example";
const OWNER = { role: "owner", email: `lena@${DOMAIN}`, name: "Lena Fischer" } as const;
const ISSUE = {
  slug: "cloud-costs-2027",
  title: "What cloud costs will look like in 2027",
  summary: "Reserved capacity, egress and the bills nobody reads.",
  body: "## Cloud costs\n\nWhat we learned from forty migrations.",
};
const COPIES = 400;
const HARD_BOUNCES = 6;

const privateKey = generateKeyPairSync("rsa", { modulusLength: 2048 })
  .privateKey.export({ type: "pkcs8", format: "pem" })
  .toString();

/** SPF and DKIM as they should be, DMARC only reporting, and no MX for the bounce domain yet. */
function zones() {
  return {
    [`mail.${DOMAIN}`]: { TXT: ["v=spf1 include:_spf.mailprovider.example -all"] },
    "_spf.mailprovider.example": { TXT: ["v=spf1 ip4:203.0.113.0/24 -all"] },
    [`insight._domainkey.${DOMAIN}`]: { TXT: [`v=DKIM1; k=rsa; p=${dkimPublicKey(privateKey)}`] },
    [`_dmarc.${DOMAIN}`]: { TXT: [`v=DMARC1; p=none; rua=mailto:dmarc@${DOMAIN}`] },
  };
}

const UNREADABLE_WHY =
  "It cannot be read as mail: Maximum MIME nesting depth of 32 levels exceeded.";

/**
 * A sent issue: its copies delivered, a few bounced and one reported as
 * spam; and what the bounce mailbox set aside: a complaint sent to the
 * plain bounce address, and a message it could not read.
 */
async function seedSentIssue(database: DatabaseHandle) {
  await setAside(database.db, {
    sourceKey: "mailbox:seed:1",
    state: "unreadable",
    email: null,
    kind: null,
    status: null,
    why: UNREADABLE_WHY,
    text: "",
  });
  await setAside(database.db, {
    sourceKey: "mailbox:seed:2",
    state: "unverified",
    email: "someone.who.reads@example.net",
    kind: "complaint",
    status: null,
    why: UNVERIFIED.noToken,
    text: "This is an email abuse report for an email message received from IP 192.0.2.1 on Fri, 27 Nov 2026.",
  });
  const { db } = database;
  const sentAt = new Date(Date.now() - 3 * 86_400_000).toISOString();
  const issueId = await writeSentIssue(database, ISSUE, {
    author: OWNER.email,
    sentAt,
    recipients: COPIES,
  });
  await writeSentCopies(database, issueId, {
    count: COPIES - HARD_BOUNCES,
    sentAt,
    message: (n) => JSON.stringify({ messageId: `<copy-${n}@${DOMAIN}>` }),
  });
  const report = (email: string, kind: NewReport["kind"]): NewReport => ({
    email,
    kind,
    status: kind === "hard" ? "5.1.1" : null,
    source: "mailbox",
    sourceKey: null,
    outboxId: null,
    messageKind: "newsletter",
    issueId,
    text: `${kind} report`,
  });
  for (let n = 0; n < HARD_BOUNCES; n += 1) {
    await recordReport(db, report(`gone-${n}@example.net`, "hard"), { limit: 3, days: 15 });
  }
  await recordReport(db, report("annoyed@example.net", "complaint"), { limit: 3, days: 15 });
}

/** Runs `use` signed in as the owner, on the Sending health page of a server of its own. */
async function onHealthPage(page: Page, label: string, use: () => Promise<void>) {
  const dns: TestDns = await startDns(zones());
  const keyFile = join(mkdtempSync(join(tmpdir(), "dkim-")), "private.pem");
  writeFileSync(keyFile, privateKey);
  try {
    await onPreparedServer(
      label,
      OWNER,
      seedSentIssue,
      async (server) => {
        await signInToConsole(page, server.account, `${server.origin}/admin/health`);
        await expect(page.getByRole("heading", { level: 1, name: "Sending health" })).toBeVisible();
        await use();
      },
      {
        MAIL_FROM: `"Meridian Consulting Group" <insight@${DOMAIN}>`,
        BOUNCE_ADDRESS: `bounces@mail.${DOMAIN}`,
        DKIM_DOMAIN: DOMAIN,
        DKIM_SELECTOR: "insight",
        DKIM_PRIVATE_KEY_FILE: keyFile,
        DNS_SERVERS: dns.server,
      },
    );
  } finally {
    await dns.close();
  }
}

const check = (page: Page, title: string) => page.getByRole("listitem").filter({ hasText: title });

test("an owner sees each check of the domain, what to publish, and a send's figures", async ({
  page,
}) => {
  test.info().setTimeout(90_000);
  await onHealthPage(page, "health-page", async () => {
    await expect(check(page, "SPF: which servers may send")).toContainText("Passes");
    await expect(check(page, "DKIM: the signature")).toContainText("Passes");
    const dmarc = check(page, "DMARC: the policy");
    await expect(dmarc).toContainText("Works, with a warning");
    await expect(dmarc).toContainText("p=none");
    const mx = check(page, "Bounce domain: where reports return");
    await expect(mx).toContainText("Fails");
    await expect(mx).toContainText(`mail.${DOMAIN} has no MX record`);
    await expect(mx.getByRole("definition").first()).toHaveText("MX");

    const issueRow = page.getByRole("row").filter({ hasText: ISSUE.title });
    await expect(issueRow).toContainText(String(COPIES - HARD_BOUNCES));
    await expect(issueRow).toContainText(`${HARD_BOUNCES} (1.52 %)`);
    await expect(issueRow).toContainText("1 (0.25 %)");

    const setAsideRegion = page.getByRole("region", { name: "Set aside from the bounce mailbox" });
    const unverified = setAsideRegion
      .getByRole("listitem")
      .filter({ hasText: "Complaint naming someone.who.reads@example.net" });
    await expect(unverified).toContainText("Unverified");
    await expect(unverified).toContainText(UNVERIFIED.noToken);
    await unverified.getByText("What the report says").click();
    await expect(unverified).toContainText("This is an email abuse report");
    const unreadable = setAsideRegion
      .getByRole("listitem")
      .filter({ hasText: "A message in the bounce mailbox" });
    await expect(unreadable).toContainText("Could not be read");
    await expect(unreadable).toContainText(UNREADABLE_WHY);
    await expectNoAxeViolations(page);
  });
});

test.describe("at 375 px", () => {
  test.use({ viewport: { width: 375, height: 800 } });

  test("the checks and their records fit the phone", async ({ page }) => {
    test.info().setTimeout(90_000);
    await onHealthPage(page, "health-phone", async () => {
      await expect(check(page, "DMARC: the policy")).toBeVisible();
      await expect(page.getByText(UNVERIFIED.noToken)).toBeVisible();
      await expectNoSidewaysScroll(page);
      await expectNoAxeViolations(page);
    });
  });
});

test("writes the page's screenshots @screenshots", async ({ page }) => {
  const dir = "docs/screenshots/admin";
  mkdirSync(dir, { recursive: true });
  test.info().setTimeout(90_000);
  await onHealthPage(page, "health-shots", async () => {
    for (const width of [375, 1440]) {
      await page.setViewportSize({ width, height: 900 });
      await page.reload();
      await expect(check(page, "DMARC: the policy")).toBeVisible();
      await expect(page.getByText(UNVERIFIED.noToken)).toBeVisible();
      await page.screenshot({ path: `${dir}/sending-health-${width}.png`, fullPage: true });
    }
  });
});

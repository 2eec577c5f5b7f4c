/**
 * What a report in the bounce mailbox must prove before it suppresses
 * anyone, against real mail servers on both engines. Anyone can write to
 * the plain bounce address, so each of the four shapes of report (a
 * delivery status notification, a feedback report, a plain-text bounce, a
 * junk-mail report) sent there naming a subscriber is kept unverified and
 * shown to the owners, and suppresses no one; so is one that carries the
 * token of a message sent to someone else. With the token of a message sent
 * to the address it names, in the bounce address, the quoted Return-Path or
 * the quoted Message-ID, it suppresses as before.
 */
import { randomBytes } from "node:crypto";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { isSuppressed, UNVERIFIED } from "../../../src/server/features/deliverability/index.ts";
import { SET_ASIDE_PATH, type SetAsideList } from "../../../src/shared/admin/sending-health.ts";
import { startApp, type TestApp } from "../../support/app.ts";
import {
  ARRIVAL,
  type BounceMailbox,
  bounceMailbox,
  placeIn,
  sentMessage,
} from "../../support/bounce-mailbox.ts";
import { type ConsoleClient, createAccount, signIn } from "../../support/console.ts";
import { ENGINES } from "../../support/engines.ts";
import {
  MAIL_SERVERS_SKIP_REASON,
  type MailServers,
  startMailServers,
} from "../../support/mail-servers.ts";
import { addSubscribers } from "../../support/newsletter.ts";
import { REPORT_SHAPES, type ReportAbout, reportMessage } from "../../support/report-messages.ts";

const SECRET = randomBytes(32).toString("hex");
/** Each test waits on a few arrivals. */
const TEST_LIMIT_MS = 90_000;

if (MAIL_SERVERS_SKIP_REASON) console.warn(MAIL_SERVERS_SKIP_REASON);

describe.skipIf(MAIL_SERVERS_SKIP_REASON).each(ENGINES)(
  "what a report in the bounce mailbox must prove, on $engine",
  (engine) => {
    let servers: MailServers;
    let box: BounceMailbox;
    let t: TestApp;
    let owner: ConsoleClient;
    let editor: ConsoleClient;
    let plainAddress: string;

    beforeAll(async () => {
      servers = (await startMailServers({ existing: [] })) as MailServers;
      box = bounceMailbox(servers);
      plainAddress = box.plainAddress;
      t = await startApp(engine, {
        BOUNCE_ADDRESS: plainAddress,
        BOUNCE_IMAP_URL: box.imapUrl,
        BOUNCE_POLL_MS: "100",
        UNSUBSCRIBE_SECRET: SECRET,
      });
      await createAccount(t.database, "owner", "boss@firm.example");
      await createAccount(t.database, "editor", "writer@firm.example");
      owner = await signIn(t.app, "boss@firm.example");
      editor = await signIn(t.app, "writer@firm.example");
    }, 30_000);
    afterAll(async () => {
      await t?.close();
      await servers?.stop();
    });

    const db = () => t.database.db;

    const sentTo = (email: string) =>
      sentMessage(t.database, { plainAddress: box.plainAddress, secret: SECRET }, email);

    /**
     * Sends each report through Postfix to its own envelope recipient, and
     * waits until the site has read past all of them: the place it keeps in
     * the mailbox reaches the last one's UID, whatever it made of them.
     */
    async function deliverAndRead(reports: string[], envelopes: string[]) {
      await box.deliver(reports.map((raw, index) => ({ raw, to: envelopes[index] ?? "" })));
      const subjects = reports.map((raw) => /^Subject: (.*)$/m.exec(raw)?.[1]?.trim() ?? "");
      const last = Math.max(...(await box.uidsOf(subjects)));
      await expect.poll(() => placeIn(t.database), ARRIVAL).toBeGreaterThanOrEqual(last);
    }

    const setAsideOf = (email: string) =>
      db()
        .selectFrom("set_aside_mail")
        .select(["state", "kind", "why"])
        .where("email", "=", email)
        .orderBy("id")
        .execute();

    const reportsOf = (email: string) =>
      db().selectFrom("delivery_reports").select("id").where("email", "=", email).execute();

    const tag = () => randomBytes(4).toString("hex");

    it(
      "keeps each shape of report sent to the plain address unverified, shows it to owners, and suppresses no one",
      async () => {
        const [victim = ""] = await addSubscribers(t.database, `victim-${tag()}`, 1, {
          domain: "readers.test",
        });
        const run = tag();
        const reports = REPORT_SHAPES.map((shape) =>
          reportMessage(shape, { recipient: victim, to: plainAddress, subject: `${shape} ${run}` }),
        );
        await deliverAndRead(
          reports,
          reports.map(() => plainAddress),
        );

        expect(await isSuppressed(db(), victim)).toBe(false);
        expect(await reportsOf(victim)).toEqual([]);
        // The reader may set the four aside in any order: compare them sorted by kind.
        const byKind = <Row extends { kind: string | null }>(rows: Row[]) =>
          [...rows].sort((a, b) => String(a.kind).localeCompare(String(b.kind)));
        expect(byKind(await setAsideOf(victim))).toEqual(
          ["complaint", "complaint", "hard", "hard"].map((kind) => ({
            state: "unverified",
            kind,
            why: UNVERIFIED.noToken,
          })),
        );

        const shown = await owner.request("GET", SET_ASIDE_PATH);
        expect(shown.statusCode).toBe(200);
        const { items } = shown.json() as SetAsideList;
        expect(byKind(items.filter((item) => item.email === victim))).toEqual(
          ["complaint", "complaint", "hard", "hard"].map((kind) =>
            expect.objectContaining({ state: "unverified", kind, why: UNVERIFIED.noToken }),
          ),
        );
        expect((await editor.request("GET", SET_ASIDE_PATH)).statusCode).toBe(403);
      },
      TEST_LIMIT_MS,
    );

    it(
      "counts no unverified soft bounce toward the soft-bounce limit",
      async () => {
        const [reader = ""] = await addSubscribers(t.database, `delayed-${tag()}`, 1, {
          domain: "readers.test",
        });
        const run = tag();
        // SOFT_BOUNCE_LIMIT is 3: three proven soft bounces would suppress.
        const reports = [1, 2, 3].map((n) =>
          reportMessage("dsn", {
            recipient: reader,
            to: plainAddress,
            subject: `delayed ${n} ${run}`,
            status: "4.2.2",
          }),
        );
        await deliverAndRead(
          reports,
          reports.map(() => plainAddress),
        );
        expect(await isSuppressed(db(), reader)).toBe(false);
        expect(await reportsOf(reader)).toEqual([]);
        expect(await setAsideOf(reader)).toHaveLength(3);
      },
      TEST_LIMIT_MS,
    );

    it(
      "keeps a report unverified when its token is of a message sent to someone else",
      async () => {
        const [victim = "", other = ""] = await addSubscribers(t.database, `pair-${tag()}`, 2, {
          domain: "readers.test",
        });
        const othersMessage = await sentTo(other);
        const run = tag();
        const cases: Array<{ about: ReportAbout; envelope: string }> = [
          // The token in the bounce address the report came to.
          ...(["dsn", "plain-bounce"] as const).map((shape) => ({
            about: {
              recipient: victim,
              to: othersMessage.bounceAddress,
              subject: `${shape} ${run}`,
            },
            envelope: othersMessage.bounceAddress,
          })),
          // The token in the quoted original's Return-Path, or its Message-ID.
          ...(["arf", "junk-mail-report"] as const).flatMap((shape) => [
            {
              about: {
                recipient: victim,
                to: plainAddress,
                returnPath: othersMessage.bounceAddress,
                subject: `${shape} return-path ${run}`,
              },
              envelope: plainAddress,
            },
            {
              about: {
                recipient: victim,
                to: plainAddress,
                messageId: othersMessage.messageId,
                subject: `${shape} message-id ${run}`,
              },
              envelope: plainAddress,
            },
          ]),
        ];
        const shapes = [
          "dsn",
          "plain-bounce",
          "arf",
          "arf",
          "junk-mail-report",
          "junk-mail-report",
        ] as const;
        await deliverAndRead(
          cases.map(({ about }, index) => reportMessage(shapes[index] ?? "dsn", about)),
          cases.map(({ envelope }) => envelope),
        );

        expect(await isSuppressed(db(), victim)).toBe(false);
        expect(await isSuppressed(db(), other)).toBe(false);
        expect(await reportsOf(victim)).toEqual([]);
        expect(await reportsOf(other)).toEqual([]);
        expect((await setAsideOf(victim)).map(({ why }) => why)).toEqual(
          cases.map(() => UNVERIFIED.otherAddress),
        );
      },
      TEST_LIMIT_MS,
    );

    it(
      "suppresses the address a report names when it carries the token of a message sent to it",
      async () => {
        const readers = await addSubscribers(t.database, `gone-${tag()}`, 4, {
          domain: "readers.test",
        });
        const [dsnTo, bounceTo, arfTo, junkTo] = await Promise.all(
          readers.map(async (recipient) => ({ recipient, message: await sentTo(recipient) })),
        );
        if (!dsnTo || !bounceTo || !arfTo || !junkTo) throw new Error("four readers were made");
        const run = tag();
        await deliverAndRead(
          [
            reportMessage("dsn", {
              recipient: dsnTo.recipient,
              to: dsnTo.message.bounceAddress,
              subject: `dsn ${run}`,
            }),
            reportMessage("plain-bounce", {
              recipient: bounceTo.recipient,
              to: bounceTo.message.bounceAddress,
              subject: `plain-bounce ${run}`,
            }),
            reportMessage("arf", {
              recipient: arfTo.recipient,
              to: plainAddress,
              returnPath: arfTo.message.bounceAddress,
              subject: `arf ${run}`,
            }),
            reportMessage("junk-mail-report", {
              recipient: junkTo.recipient,
              to: plainAddress,
              messageId: junkTo.message.messageId,
              subject: `junk-mail-report ${run}`,
            }),
          ],
          [dsnTo.message.bounceAddress, bounceTo.message.bounceAddress, plainAddress, plainAddress],
        );

        const suppressed = await db()
          .selectFrom("suppressions")
          .innerJoin("delivery_reports", "delivery_reports.id", "suppressions.report_id")
          .select(["suppressions.email", "reason", "outbox_id"])
          .where("suppressions.email", "in", readers)
          .orderBy("suppressions.email")
          .execute();
        expect(suppressed).toEqual(
          [
            { email: dsnTo.recipient, reason: "hard-bounce", outbox_id: dsnTo.message.id },
            { email: bounceTo.recipient, reason: "hard-bounce", outbox_id: bounceTo.message.id },
            { email: arfTo.recipient, reason: "complaint", outbox_id: arfTo.message.id },
            { email: junkTo.recipient, reason: "complaint", outbox_id: junkTo.message.id },
          ].sort((a, b) => a.email.localeCompare(b.email)),
        );
        for (const reader of readers) expect(await setAsideOf(reader)).toEqual([]);
      },
      TEST_LIMIT_MS,
    );
  },
);

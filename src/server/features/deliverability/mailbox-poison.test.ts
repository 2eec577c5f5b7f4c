/**
 * A message made to stop the bounce mailbox's reader never does, against
 * real mail servers on both engines: each message is read on its own, one
 * that cannot be read is set aside (kept in the mailbox, shown to the owners
 * with why) and the reader goes on to the next, and the place it keeps in
 * the mailbox moves past each message, so no poll reads one twice. Two ways
 * a message fails: parts nested 300 deep, which the parser refuses, and a
 * reading that outlasts its time, which the worker thread's limit stops.
 */
import { randomBytes } from "node:crypto";
import { Writable } from "node:stream";
import pino from "pino";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startApp, type TestApp } from "../../../../test/support/app.ts";
import {
  ARRIVAL,
  type BounceMailbox,
  bounceMailbox,
  placeIn,
  sentMessage,
} from "../../../../test/support/bounce-mailbox.ts";
import { type ConsoleClient, createAccount, signIn } from "../../../../test/support/console.ts";
import {
  ENGINES,
  type EngineCase,
  openMigrated,
  type TestDatabase,
} from "../../../../test/support/engines.ts";
import { HANG_HEADER } from "../../../../test/support/hanging-report-worker.ts";
import {
  MAIL_SERVERS_SKIP_REASON,
  type MailServers,
  startMailServers,
} from "../../../../test/support/mail-servers.ts";
import { addSubscribers } from "../../../../test/support/newsletter.ts";
import { nestedReport, reportMessage } from "../../../../test/support/report-messages.ts";
import { SET_ASIDE_PATH, type SetAsideList } from "../../../shared/admin/sending-health.ts";
import type { DatabaseHandle } from "../../platform/db/connection.ts";
import { BounceMailboxReader, mailboxLocation } from "./bounce-mailbox.ts";
import { isSuppressed } from "./index.ts";

const SECRET = randomBytes(32).toString("hex");
/** Each test waits on a few arrivals. */
const TEST_LIMIT_MS = 90_000;
/** Long enough for a worker to start on a loaded machine; the hanging message takes all of it. */
const HANG_LIMIT_MS = 10_000;

if (MAIL_SERVERS_SKIP_REASON) console.warn(MAIL_SERVERS_SKIP_REASON);

interface LogLine {
  msg: string;
  uid?: number;
}

const setAside = (database: DatabaseHandle) =>
  database.db.selectFrom("set_aside_mail").select(["state", "why", "source_key"]).execute();

/** How often each of `uids` was read, by the reader's own lines about it. */
function readsOf(logs: string[], uids: number[]): number[] {
  const lines = logs.map((line) => JSON.parse(line) as LogLine);
  return uids.map(
    (uid) =>
      lines.filter(
        (line) =>
          line.uid === uid &&
          (line.msg === "report read from the bounce mailbox" ||
            line.msg === "bounce mailbox message set aside as unreadable"),
      ).length,
  );
}

describe.skipIf(MAIL_SERVERS_SKIP_REASON).each(ENGINES)(
  "a poisoned message in the bounce mailbox, on $engine",
  (engine: EngineCase) => {
    describe("in the running server", () => {
      let servers: MailServers;
      let box: BounceMailbox;
      let t: TestApp;
      let owner: ConsoleClient;

      beforeAll(async () => {
        servers = (await startMailServers({ existing: [] })) as MailServers;
        box = bounceMailbox(servers);
        t = await startApp(engine, {
          BOUNCE_ADDRESS: box.plainAddress,
          BOUNCE_IMAP_URL: box.imapUrl,
          BOUNCE_POLL_MS: "100",
          UNSUBSCRIBE_SECRET: SECRET,
        });
        await createAccount(t.database, "owner", "boss@firm.example");
        owner = await signIn(t.app, "boss@firm.example");
      }, 30_000);
      afterAll(async () => {
        await t?.close();
        await servers?.stop();
      });

      it(
        "sets aside a message nested 300 levels deep, reads the report after it, and reads neither again",
        async () => {
          const [reader = ""] = await addSubscribers(t.database, "after-poison", 1, {
            domain: "readers.test",
          });
          const message = await sentMessage(
            t.database,
            { plainAddress: box.plainAddress, secret: SECRET },
            reader,
          );
          const poisoned = nestedReport(300, {
            recipient: reader,
            to: box.plainAddress,
            subject: "Nested 300 deep",
          });
          const genuine = reportMessage("dsn", {
            recipient: reader,
            to: message.bounceAddress,
            subject: "Genuine after the poison",
          });
          await box.deliver([
            { raw: poisoned, to: box.plainAddress },
            { raw: genuine, to: message.bounceAddress },
            box.ordinary("Then an ordinary message"),
          ]);
          const [poisonedUid = 0, genuineUid = 0, ordinaryUid = 0] = await box.uidsOf([
            "Nested 300 deep",
            "Genuine after the poison",
            "Then an ordinary message",
          ]);
          await expect.poll(() => placeIn(t.database), ARRIVAL).toBeGreaterThanOrEqual(ordinaryUid);

          expect(await isSuppressed(t.database.db, reader)).toBe(true);
          expect(
            (await setAside(t.database)).filter(({ source_key }) =>
              source_key.endsWith(`:${poisonedUid}`),
            ),
          ).toEqual([
            {
              state: "unreadable",
              why: "It cannot be read as mail: Maximum MIME nesting depth of 32 levels exceeded.",
              source_key: expect.any(String),
            },
          ]);
          const shown = (await owner.request("GET", SET_ASIDE_PATH)).json() as SetAsideList;
          expect(shown.items).toContainEqual(
            expect.objectContaining({
              state: "unreadable",
              email: null,
              why: "It cannot be read as mail: Maximum MIME nesting depth of 32 levels exceeded.",
            }),
          );

          // A later poll: the reader's place moves on to a message that comes
          // after, and neither message before it is read again.
          await box.deliver([box.ordinary("A later ordinary message")]);
          const [laterUid = 0] = await box.uidsOf(["A later ordinary message"]);
          await expect.poll(() => placeIn(t.database), ARRIVAL).toBeGreaterThanOrEqual(laterUid);
          expect(readsOf(t.logs, [poisonedUid, genuineUid])).toEqual([1, 1]);
        },
        TEST_LIMIT_MS,
      );

      it(
        "sets aside a message over 4 MB without fetching it, and reads the report after it",
        async () => {
          const [reader = ""] = await addSubscribers(t.database, "after-large", 1, {
            domain: "readers.test",
          });
          const message = await sentMessage(
            t.database,
            { plainAddress: box.plainAddress, secret: SECRET },
            reader,
          );
          const line = `${"x".repeat(998)}\r\n`;
          const large = reportMessage("plain-bounce", {
            recipient: reader,
            to: box.plainAddress,
            subject: "Five megabytes",
          }).replace(
            "This message was created",
            `${line.repeat(5 * 1024)}This message was created`,
          );
          await box.deliver([
            { raw: large, to: box.plainAddress },
            {
              raw: reportMessage("dsn", {
                recipient: reader,
                to: message.bounceAddress,
                subject: "Genuine after the large one",
              }),
              to: message.bounceAddress,
            },
          ]);
          const [largeUid = 0, genuineUid = 0] = await box.uidsOf([
            "Five megabytes",
            "Genuine after the large one",
          ]);
          await expect.poll(() => placeIn(t.database), ARRIVAL).toBeGreaterThanOrEqual(genuineUid);

          expect(await isSuppressed(t.database.db, reader)).toBe(true);
          const kept = await t.database.db
            .selectFrom("set_aside_mail")
            .select(["state", "why"])
            .where("source_key", "like", `%:${largeUid}`)
            .execute();
          expect(kept).toEqual([
            {
              state: "unreadable",
              why: expect.stringMatching(/^It is [\d.]+ MB, over the 4 MB a report may be\.$/),
            },
          ]);
        },
        TEST_LIMIT_MS,
      );
    });

    describe("when reading a message outlasts its time", () => {
      let servers: MailServers;
      let box: BounceMailbox;
      let testDb: TestDatabase;
      let database: DatabaseHandle;
      let reader: BounceMailboxReader;
      const logs: string[] = [];

      beforeAll(async () => {
        servers = (await startMailServers({ existing: [] })) as MailServers;
        box = bounceMailbox(servers);
        testDb = await engine.create();
        database = await openMigrated(testDb);
        const log = pino(
          { level: "info" },
          new Writable({
            write(chunk, _encoding, done) {
              logs.push(String(chunk));
              done();
            },
          }),
        );
        reader = new BounceMailboxReader({
          database,
          log,
          location: mailboxLocation(box.imapUrl),
          signing: { bounceAddress: box.plainAddress, secret: SECRET },
          policy: { limit: 3, days: 15 },
          pollMs: 100,
          reading: {
            module: new URL("../../../../test/support/hanging-report-worker.ts", import.meta.url),
            limits: { timeoutMs: HANG_LIMIT_MS, maxHeapMb: 128 },
          },
        });
      }, 30_000);
      afterAll(async () => {
        await reader?.stop();
        await database?.db.destroy();
        await testDb?.drop();
        await servers?.stop();
      });

      it(
        "sets aside the message whose reading was stopped, and reads the report after it",
        async () => {
          const now = new Date().toISOString();
          const email = "after-hang@readers.test";
          await database.db
            .insertInto("subscriptions")
            .values({
              email,
              subscribed_at: now,
              subscribed_via: "import",
              confirmed_at: now,
              created_at: now,
              updated_at: now,
            })
            .execute();
          const message = await sentMessage(
            database,
            { plainAddress: box.plainAddress, secret: SECRET },
            email,
          );
          const hanging = reportMessage("dsn", {
            recipient: email,
            to: box.plainAddress,
            subject: "Hangs its reader",
          }).replace("MIME-Version: 1.0", `${HANG_HEADER}\r\nMIME-Version: 1.0`);
          const genuine = reportMessage("dsn", {
            recipient: email,
            to: message.bounceAddress,
            subject: "Genuine after the hang",
          });
          await box.deliver([
            { raw: hanging, to: box.plainAddress },
            { raw: genuine, to: message.bounceAddress },
          ]);
          const [hangingUid = 0, genuineUid = 0] = await box.uidsOf([
            "Hangs its reader",
            "Genuine after the hang",
          ]);
          reader.start();
          await expect
            .poll(() => isSuppressed(database.db, email), {
              ...ARRIVAL,
              timeout: ARRIVAL.timeout + 2 * HANG_LIMIT_MS,
            })
            .toBe(true);

          const kept = await database.db
            .selectFrom("set_aside_mail")
            .select(["state", "why"])
            .where("source_key", "like", `%:${hangingUid}`)
            .execute();
          expect(kept).toEqual([
            {
              state: "unreadable",
              why: `Reading it took longer than ${HANG_LIMIT_MS / 1000} seconds, so it was stopped.`,
            },
          ]);
          await expect.poll(() => placeIn(database), ARRIVAL).toBeGreaterThanOrEqual(genuineUid);
          expect(readsOf(logs, [hangingUid, genuineUid])).toEqual([1, 1]);
        },
        TEST_LIMIT_MS,
      );
    });
  },
);

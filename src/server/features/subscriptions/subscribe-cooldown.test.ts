/**
 * The subscribe form cannot be turned on a stranger's mailbox: however many
 * clients ask, each from its own address behind the site's proxy (so the
 * per-client rate limit lets every one through), an address gets at most one
 * confirmation link, and one welcome, within SUBSCRIBE_MAIL_COOLDOWN_MINUTES.
 * Every request is answered as before, mail or not; a turn whose window has
 * passed is forgotten. The app's clock is moved past the window instead of
 * waiting; on both engines.
 */
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { openSession, type Session, startApp, type TestApp } from "../../../../test/support/app.ts";
import { SQLITE_ONLY } from "../../../../test/support/engines.ts";
import { CONSENT_VIA } from "../../../shared/admin/subscribers.ts";
import { forgetPastTurns } from "./mail-cooldown.ts";
import { unsubscribe } from "./queries.ts";
import { CONFIRMATION_SENT_MESSAGE, SUBSCRIBED_MESSAGE } from "./writes.ts";

const PROXY = "10.0.0.7";
const COOLDOWN_MINUTES = 10;
const MINUTE_MS = 60 * 1000;
/** Low, so that it would stop one client long before the tests' request counts. */
const PER_CLIENT_LIMIT = 3;
const SIMULTANEOUS = 50;

/** A client address of its own for request `i`. */
const client = (i: number) => `198.51.${Math.floor(i / 250)}.${i % 250}`;

describe.each(SQLITE_ONLY)("the subscribe mail cooldown on $engine", (engine) => {
  let t: TestApp;
  let session: Session;
  /** How far the test has moved the app's clock ahead of the real one. */
  let ahead = 0;
  let nextClient = 0;

  async function start(env: Record<string, string>) {
    t = await startApp(
      engine,
      {
        TRUST_PROXY: PROXY,
        RATE_LIMIT_PER_MINUTE: String(PER_CLIENT_LIMIT),
        SUBSCRIBE_MAIL_COOLDOWN_MINUTES: String(COOLDOWN_MINUTES),
        ...env,
      },
      { now: () => Date.now() + ahead },
    );
    session = await openSession(t.app);
  }
  beforeEach(() => {
    ahead = 0;
  });
  afterEach(() => t.close());

  /** One subscribe request for `email`, from a client no earlier request came from. */
  function subscribe(email: string) {
    nextClient += 1;
    return t.app.inject({
      method: "POST",
      url: `/api/v1/subscribe?emailId=${encodeURIComponent(email)}`,
      remoteAddress: PROXY,
      headers: {
        cookie: session.cookie,
        "x-xsrf-token": session.token,
        "x-forwarded-for": client(nextClient),
      },
    });
  }

  async function queued(kind: string): Promise<number> {
    const rows = await t.database.db
      .selectFrom("outbox")
      .select("id")
      .where("kind", "=", kind)
      .execute();
    return rows.length;
  }

  const heldBack = () =>
    t.logs.filter((line) => line.includes("the address had one within its cooldown")).length;

  describe("with double opt-in", () => {
    beforeEach(() => start({ NEWSLETTER_DOUBLE_OPT_IN: "true" }));

    it("queues one confirmation for 20 requests from 20 clients, and one more after the window", async () => {
      const email = "stranger@example.com";
      const answers = [];
      for (let i = 0; i < 20; i += 1) answers.push(await subscribe(email));
      for (const answer of answers) {
        expect(answer.statusCode).toBe(201);
        expect(answer.json()).toEqual({
          message: CONFIRMATION_SENT_MESSAGE,
          confirmationAsked: true,
        });
      }
      expect(await queued("subscription-confirmation")).toBe(1);
      expect(heldBack()).toBe(19);

      // Measured from the mail that took the turn, not from now: on a busy
      // machine the 20 requests above may take longer than the margin.
      const [turn] = await t.database.db.selectFrom("mail_cooldowns").select("mailed_at").execute();
      const windowEnds = Date.parse(turn?.mailed_at ?? "") + COOLDOWN_MINUTES * MINUTE_MS;
      ahead = windowEnds - 1000 - Date.now();
      expect((await subscribe(email)).statusCode).toBe(201);
      expect(await queued("subscription-confirmation")).toBe(1);

      ahead = windowEnds - Date.now();
      expect((await subscribe(email)).statusCode).toBe(201);
      expect(await queued("subscription-confirmation")).toBe(2);
    });

    it(`queues one confirmation for ${SIMULTANEOUS} simultaneous requests from as many clients`, async () => {
      const email = "crowded@example.com";
      const answers = await Promise.all(
        Array.from({ length: SIMULTANEOUS }, () => subscribe(email)),
      );
      expect(answers.map((answer) => answer.statusCode)).toEqual(
        Array.from({ length: SIMULTANEOUS }, () => 201),
      );
      expect(await queued("subscription-confirmation")).toBe(1);

      ahead = COOLDOWN_MINUTES * MINUTE_MS;
      await Promise.all(Array.from({ length: SIMULTANEOUS }, () => subscribe(email)));
      expect(await queued("subscription-confirmation")).toBe(2);
    });

    it("keeps one address's cooldown from holding back another's mail", async () => {
      await subscribe("first@example.com");
      await subscribe("second@example.com");
      expect(await queued("subscription-confirmation")).toBe(2);
    });

    it("forgets a turn once its window has passed, and only then", async () => {
      const db = t.database.db;
      const cooldown = { minutes: COOLDOWN_MINUTES, now: () => Date.now() + ahead };
      await subscribe("earlier@example.com");
      ahead = 5 * MINUTE_MS;
      await subscribe("later@example.com");
      const turns = () => db.selectFrom("mail_cooldowns").select("mailed_at").execute();
      expect(await forgetPastTurns(db, cooldown)).toBe(0);
      expect(await turns()).toHaveLength(2);

      ahead = COOLDOWN_MINUTES * MINUTE_MS;
      expect(await forgetPastTurns(db, cooldown)).toBe(1);
      const [left] = await turns();
      expect(await turns()).toHaveLength(1);
      expect(Date.parse(left?.mailed_at ?? "")).toBeGreaterThan(Date.now());
      // The forgotten address may be mailed again, the other may not.
      await subscribe("earlier@example.com");
      await subscribe("later@example.com");
      expect(await queued("subscription-confirmation")).toBe(3);
    });

    it("keeps no address in its table", async () => {
      await subscribe("kept-out@example.com");
      const rows = await t.database.db.selectFrom("mail_cooldowns").selectAll().execute();
      expect(rows).toEqual([
        {
          address_key: expect.stringMatching(/^[0-9a-f]{64}$/),
          kind: "subscription-confirmation",
          mailed_at: expect.any(String),
        },
      ]);
    });
  });

  describe("without double opt-in", () => {
    beforeEach(() => start({}));

    it("welcomes an address that leaves and comes back once within the window", async () => {
      const email = "comes-and-goes@example.com";
      const db = t.database.db;
      const rejoin = async () => {
        const row = await db
          .selectFrom("subscriptions")
          .select("id")
          .where("email", "=", email)
          .executeTakeFirstOrThrow();
        await unsubscribe(db, row.id, CONSENT_VIA.link);
        return subscribe(email);
      };
      expect((await subscribe(email)).statusCode).toBe(201);
      const again = await rejoin();
      expect(again.statusCode).toBe(201);
      expect(again.json()).toEqual({ message: SUBSCRIBED_MESSAGE, confirmationAsked: false });
      expect(await queued("welcome")).toBe(1);

      ahead = COOLDOWN_MINUTES * MINUTE_MS;
      expect((await rejoin()).statusCode).toBe(201);
      expect(await queued("welcome")).toBe(2);
    });
  });
});

import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { openSession, type Session, startApp, type TestApp } from "../../support/app.ts";
import { ENGINES } from "../../support/engines.ts";

const SIMULTANEOUS = 50;

/**
 * What one new address's simultaneous requests answer. Without double
 * opt-in one wins and the others hear it is subscribed already (409), and
 * the consent history has the winner's line. With it, the others find the
 * address waiting for its confirmation and send the link again, so each
 * answer is the usual success, and the history waits for the confirmation.
 */
const SETTINGS: {
  name: string;
  env: Record<string, string>;
  answers: object;
  consentLines: number;
}[] = [
  {
    name: "without double opt-in",
    env: {},
    answers: { 201: 1, 409: SIMULTANEOUS - 1 },
    consentLines: 1,
  },
  {
    name: "with double opt-in",
    env: { NEWSLETTER_DOUBLE_OPT_IN: "true" },
    answers: { 201: SIMULTANEOUS },
    consentLines: 0,
  },
];

describe.each(ENGINES)("simultaneous subscribes on $engine", (engine) => {
  describe.each(SETTINGS)("$name", ({ env, answers, consentLines }) => {
    let t: TestApp;
    let origin: string;
    let session: Session;
    beforeAll(async () => {
      t = await startApp(engine, env);
      origin = await t.app.listen({ port: 0, host: "127.0.0.1" });
      session = await openSession(t.app);
    });
    afterAll(() => t.close());

    it(`stores one row from ${SIMULTANEOUS} requests for one new address`, async () => {
      const url = `${origin}/api/v1/subscribe?emailId=race%40example.com`;
      const responses = await Promise.all(
        Array.from({ length: SIMULTANEOUS }, () =>
          fetch(url, {
            method: "POST",
            headers: { cookie: session.cookie, "x-xsrf-token": session.token },
          }),
        ),
      );
      const counted: Record<number, number> = {};
      for (const { status } of responses) counted[status] = (counted[status] ?? 0) + 1;
      expect(counted).toEqual(answers);
      const rows = await t.database.db.selectFrom("subscriptions").selectAll().execute();
      expect(rows).toHaveLength(1);
      const events = await t.database.db.selectFrom("subscription_events").selectAll().execute();
      expect(events).toHaveLength(consentLines);
    });
  });
});

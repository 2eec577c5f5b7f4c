import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { openSession, type Session, startApp, type TestApp } from "../support/app.ts";
import { ENGINES } from "../support/engines.ts";

const SIMULTANEOUS = 50;

describe.each(ENGINES)("simultaneous subscribes on $engine", (engine) => {
  let t: TestApp;
  let origin: string;
  let session: Session;
  beforeAll(async () => {
    t = await startApp(engine);
    origin = await t.app.listen({ port: 0, host: "127.0.0.1" });
    session = await openSession(t.app);
  });
  afterAll(() => t.close());

  it(`lets exactly one of ${SIMULTANEOUS} requests for one new address win`, async () => {
    const url = `${origin}/api/v1/subscribe?emailId=race%40example.com`;
    const responses = await Promise.all(
      Array.from({ length: SIMULTANEOUS }, () =>
        fetch(url, {
          method: "POST",
          headers: { cookie: session.cookie, "x-xsrf-token": session.token },
        }),
      ),
    );
    const statuses = responses.map((r) => r.status);
    expect(statuses.filter((s) => s === 201)).toHaveLength(1);
    expect(statuses.filter((s) => s === 409)).toHaveLength(SIMULTANEOUS - 1);
    const rows = await t.database.db.selectFrom("subscriptions").selectAll().execute();
    expect(rows).toHaveLength(1);
  });
});

/**
 * The statements that pace bulk mail per receiving domain, on both engines:
 * of many senders asking for a domain's slot at once, exactly one gets it;
 * a deferral doubles the domain's wait up to the maximum; a delivered copy
 * resets it; the rates are read from the environment; and a server that
 * turns the sender away at its greeting is a deferral too.
 */
import type { AddressInfo } from "node:net";
import nodemailer from "nodemailer";
import { SMTPServer } from "smtp-server";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import type { DatabaseHandle } from "../../../src/server/platform/db/connection.ts";
import {
  backOffDomain,
  domainIntervalMs,
  resetDomainBackoff,
  takeDomainSlot,
} from "../../../src/server/platform/outbox/domain-pacing.ts";
import { deferral } from "../../../src/server/platform/outbox/transport.ts";
import { loadConfig } from "../../../src/server/settings.ts";
import { openMigrated, SQLITE_ONLY, type TestDatabase } from "../../support/engines.ts";

const BACKOFF = { backoffBaseMs: 60_000, backoffMaxMs: 3_600_000 };

describe.each(SQLITE_ONLY)("a domain's slots and back-off on $engine", (engine) => {
  let testDb: TestDatabase;
  let database: DatabaseHandle;

  beforeEach(async () => {
    testDb = await engine.create();
    database = await openMigrated(testDb);
  });
  afterEach(async () => {
    await database.db.destroy();
    await testDb.drop();
  });

  const row = () =>
    database.db
      .selectFrom("domain_pacing")
      .select(["next_at", "backoff_level"])
      .where("domain", "=", "gmail.test")
      .executeTakeFirstOrThrow();

  it("gives a slot to one of many senders asking at once, and the next only once it has passed", async () => {
    const now = new Date();
    const takes = await Promise.all(
      Array.from({ length: 8 }, () => takeDomainSlot(database.db, "gmail.test", 500, now)),
    );
    expect(takes.filter((level) => level !== undefined)).toEqual([0]);
    expect(
      await takeDomainSlot(database.db, "gmail.test", 500, new Date(now.getTime() + 499)),
    ).toBeUndefined();
    expect(
      await takeDomainSlot(database.db, "gmail.test", 500, new Date(now.getTime() + 500)),
    ).toBe(0);
    expect(await takeDomainSlot(database.db, "outlook.test", 500, now)).toBe(0);
  });

  it("doubles a deferring domain's wait up to the maximum, and starts over after a delivery", async () => {
    const now = new Date("2026-11-27T10:00:00.000Z");
    const waits: number[] = [];
    for (let deferral = 0; deferral < 8; deferral += 1) {
      const until = await backOffDomain(database.db, engine.engine, "gmail.test", BACKOFF, now);
      waits.push((until.getTime() - now.getTime()) / 60_000);
    }
    expect(waits).toEqual([1, 2, 4, 8, 16, 32, 60, 60]);
    expect((await row()).backoff_level).toBe(8);
    // A waiting domain gives no slot; once its wait is over, the slot shows the back-off.
    expect(await takeDomainSlot(database.db, "gmail.test", 100, now)).toBeUndefined();
    const later = new Date(now.getTime() + 60 * 60_000);
    expect(await takeDomainSlot(database.db, "gmail.test", 100, later)).toBe(8);

    await resetDomainBackoff(database.db, "gmail.test");
    expect((await row()).backoff_level).toBe(0);
    const until = await backOffDomain(database.db, engine.engine, "gmail.test", BACKOFF, now);
    expect(until.getTime() - now.getTime()).toBe(60_000);
  });
});

describe("the rates per domain", () => {
  it("reads a default rate and the named domains' own, the issue's rate staying the ceiling", () => {
    const config = loadConfig({
      DOMAIN_RATE_PER_SECOND: "5",
      DOMAIN_RATES: "Gmail.com=20, outlook.com=0.5",
    });
    const policy = {
      ratePerSecond: 5,
      rates: config.DOMAIN_RATES,
      ...BACKOFF,
    };
    expect(config.DOMAIN_RATE_PER_SECOND).toBe(5);
    expect(config.DOMAIN_RATES).toEqual({ "gmail.com": 20, "outlook.com": 0.5 });
    expect(domainIntervalMs(policy, "gmail.com", 10)).toBe(50);
    expect(domainIntervalMs(policy, "outlook.com", 10)).toBe(2000);
    expect(domainIntervalMs(policy, "example.com", 10)).toBe(200);
    // An issue slower than the domain's rate sets the pace.
    expect(domainIntervalMs(policy, "gmail.com", 100)).toBe(100);
    expect(domainIntervalMs({ rates: {}, ...BACKOFF }, "example.com", 10)).toBe(10);
  });

  it("refuses a rate it cannot read", () => {
    expect(() => loadConfig({ DOMAIN_RATES: "gmail.com" })).toThrow(/DOMAIN_RATES/);
    expect(() => loadConfig({ DOMAIN_RATES: "gmail.com=fast" })).toThrow(/DOMAIN_RATES/);
  });
});

describe("a deferral", () => {
  it("is read from a 421 at the greeting, before any command", async () => {
    const server = new SMTPServer({
      authOptional: true,
      disabledCommands: ["STARTTLS", "AUTH"],
      logger: false,
      onConnect(_session, callback) {
        callback(Object.assign(new Error("4.7.0 Too many connections"), { responseCode: 421 }));
      },
    });
    await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
    const { port } = server.server.address() as AddressInfo;
    const transport = nodemailer.createTransport({ url: `smtp://127.0.0.1:${port}` });
    try {
      const error = await transport
        .sendMail({ from: "news@firm.example", to: "reader@gmail.test", text: "hello" })
        .then(
          () => null,
          (failure: unknown) => failure,
        );
      expect(deferral(error)).toEqual({ code: 421, response: expect.stringContaining("4.7.0") });
    } finally {
      transport.close();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    }
  });
});

/**
 * The in-memory parts of the audience counting (ADR 051), without a
 * database: a visit's source and channel, the tally's bound on the values
 * of one dimension, and the bound on the visitors one process remembers.
 */
import { createHmac, randomBytes } from "node:crypto";
import { describe, expect, it } from "vitest";
import { type Hit, referrerDomain } from "../../src/server/features/audience/hits.ts";
import { dayOf, visitorHash, visitorHasher } from "../../src/server/features/audience/salts.ts";
import { OTHER_VALUE, Tally } from "../../src/server/features/audience/tally.ts";
import { MemoryVisitors } from "../../src/server/features/audience/visits.ts";
import { channelOf } from "../../src/shared/lead-source.ts";

const own = (host: string) => host === "meridian.example";

describe("a visit's source", () => {
  it.each([
    ["https://www.google.com/", "", "google.com", "search"],
    ["https://www.google.co.uk/search?q=x", "", "google.co.uk", "search"],
    ["https://duckduckgo.com/", "", "duckduckgo.com", "search"],
    ["https://www.linkedin.com/feed/", "", "linkedin.com", "social"],
    ["https://t.co/abc", "", "t.co", "social"],
    ["https://mail.google.com/", "", "mail.google.com", "email"],
    ["https://partner.example/post", "", "partner.example", "other"],
    ["", "", "", "direct"],
    ["", "email", "", "email"],
    ["https://www.google.com/", "newsletter", "google.com", "email"],
    ["", "cpc", "", "search"],
    ["https://meridian.example/weare", "", "", "direct"],
    ["not a url", "", "", "direct"],
  ])("%j with medium %j comes from %j through %s", (referrer, medium, domain, channel) => {
    const from = referrerDomain(referrer, own);
    expect(from).toBe(domain);
    expect(channelOf({ referrer: from, utmMedium: medium })).toBe(channel);
  });
});

describe("the tally", () => {
  it("adds a row's counts and gives them up once", () => {
    const tally = new Tally();
    tally.add("2026-11-27", "page", "/weare", { views: 1, visits: 1, visitors: 1 });
    tally.add("2026-11-27", "page", "/weare", { views: 1, visits: 0, visitors: 0 });
    expect(tally.take()).toEqual([
      { day: "2026-11-27", dimension: "page", value: "/weare", views: 2, visits: 1, visitors: 1 },
    ]);
    expect(tally.take()).toEqual([]);
  });

  it("counts the values of a dimension past its bound as one other value, for the day", () => {
    const tally = new Tally(3);
    for (const source of ["a", "b", "c", "d", "e", "a"]) {
      tally.add("2026-11-27", "utm_source", source, { views: 1, visits: 1, visitors: 1 });
    }
    tally.add("2026-11-27", "utm_medium", "email", { views: 1, visits: 1, visitors: 1 });
    const rows = tally.take();
    expect(rows.map((row) => [row.dimension, row.value, row.views])).toEqual([
      ["utm_source", "a", 2],
      ["utm_source", "b", 1],
      ["utm_source", "c", 1],
      ["utm_source", OTHER_VALUE, 2],
      ["utm_medium", "email", 1],
    ]);
    tally.forgetBefore("2026-11-28");
    tally.add("2026-11-28", "utm_source", "d", { views: 1, visits: 1, visitors: 1 });
    expect(tally.take().map((row) => row.value)).toEqual(["d"]);
  });
});

describe("the visitors one process remembers", () => {
  const hit = (at: number): Hit => ({
    day: "2026-11-27",
    at,
    ip: "",
    userAgent: "",
    host: "",
    path: "/",
    referrer: "",
    query: "",
    arrives: false,
  });

  it("are bounded: past the bound, the one seen least recently is forgotten and counts anew", () => {
    const tally = new Tally();
    const visitors = new MemoryVisitors(tally, 2);
    const none = () => [] as [];
    visitors.countNow("first", hit(1), none);
    visitors.countNow("second", hit(2), none);
    visitors.countNow("first", hit(3), none);
    visitors.countNow("third", hit(4), none);
    expect(visitors.size).toBe(2);
    // "first" was seen after "second", so it was kept: the same visit.
    visitors.countNow("first", hit(5), none);
    // "second" was the least recent: forgotten, so it is a new visitor again.
    visitors.countNow("second", hit(6), none);
    const total = tally.take().find((row) => row.dimension === "total");
    expect(total).toMatchObject({ views: 6, visits: 4, visitors: 4 });
  });
});

describe("the visitor hash", () => {
  it("is the HMAC-SHA256 of the address, user agent and host, keyed with the day's salt", () => {
    const salt = randomBytes(32);
    const hasher = visitorHasher(salt);
    for (const [ip, agent, host] of [
      ["203.0.113.7", "Mozilla/5.0 (X11; Linux x86_64)", "meridian.example"],
      ["2001:db8::1", "Mozilla/5.0 (iPhone) «ünïcode»", "localhost:3000"],
      ["", "", ""],
    ] as const) {
      expect(hasher(ip, agent, host)).toBe(visitorHash(salt, ip, agent, host));
      const expected = createHmac("sha256", salt)
        .update(`${ip}\n${agent}\n${host}`)
        .digest("base64url")
        .slice(0, 22);
      expect(hasher(ip, agent, host)).toBe(expected);
    }
    expect(visitorHasher(randomBytes(32))("203.0.113.7", "a", "b")).not.toBe(
      hasher("203.0.113.7", "a", "b"),
    );
  });

  it("is made on the UTC day of the view", () => {
    expect(dayOf(Date.parse("2026-11-27T23:59:59.999Z"))).toBe("2026-11-27");
    expect(dayOf(Date.parse("2026-11-28T00:00:00.000Z"))).toBe("2026-11-28");
    expect(dayOf(Date.parse("2026-11-27T12:00:00.000Z"))).toBe("2026-11-27");
    expect(dayOf(Date.parse("1969-12-31T23:00:00.000Z"))).toBe("1969-12-31");
  });
});

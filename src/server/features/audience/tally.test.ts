/**
 * The in-memory parts of the audience counting (ADR 051), without a
 * database: a visit's source and channel, the tally's bound on the values
 * of one dimension, and the bound on the visitors one process remembers.
 */
import { createHmac, randomBytes } from "node:crypto";
import { describe, expect, it } from "vitest";
import { OTHER_VALUE } from "../../../shared/admin/audience.ts";
import { channelOf } from "../../../shared/lead-source.ts";
import { AddressLimits } from "./addresses.ts";
import { type Hit, ownHost, referrerDomain } from "./hits.ts";
import { addressHash, dayOf, viewHasher, visitorHash } from "./salts.ts";
import { Tally } from "./tally.ts";
import { MemoryVisitors } from "./visits.ts";

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

describe("the site's own host", () => {
  it("is PUBLIC_ORIGIN's host name, in any case; any other is not", () => {
    const isOwn = ownHost("https://www.meridian.example");
    expect(["www.meridian.example", "WWW.Meridian.Example"].map(isOwn)).toEqual([true, true]);
    const others = ["meridian.example", "www.meridian.example.evil.example", "localhost", ""];
    expect(others.map(isOwn)).toEqual([false, false, false, false]);
  });

  it("is every loopback name for a site whose public origin is on loopback (development)", () => {
    const isOwn = ownHost("http://localhost:3000");
    expect(["localhost", "127.0.0.1", "[::1]"].map(isOwn)).toEqual([true, true, true]);
    expect(isOwn("meridian.example")).toBe(false);
  });
});

describe("the tally", () => {
  it("adds a row's counts and gives them up once", () => {
    const tally = new Tally(2000);
    tally.add("2026-11-27", "page", "/weare", { views: 1, visits: 1, visitors: 1 });
    tally.add("2026-11-27", "page", "/weare", { views: 1, visits: 0, visitors: 0 });
    tally.add("2026-11-27", "page", "/weare", { conversions: 1, inquiries: 1 });
    expect(tally.take()).toEqual([
      {
        day: "2026-11-27",
        dimension: "page",
        value: "/weare",
        views: 2,
        visits: 1,
        visitors: 1,
        conversions: 1,
        inquiries: 1,
        subscriptions: 0,
      },
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
    path: "/",
    referrer: "",
    query: "",
    arrives: false,
  });

  it("are bounded: past the bound, the one seen least recently is forgotten and counts anew", () => {
    const tally = new Tally(2000);
    const addresses = new AddressLimits({ viewsPerMinute: 100, visitorsPerAddress: 100 });
    const visitors = new MemoryVisitors(tally, addresses, 2);
    const none = () => [] as [];
    const of = (visitor: string) => ({ visitor, address: `address of ${visitor}` });
    visitors.countNow(of("first"), hit(1), none);
    visitors.countNow(of("second"), hit(2), none);
    visitors.countNow(of("first"), hit(3), none);
    visitors.countNow(of("third"), hit(4), none);
    expect(visitors.size).toBe(2);
    // "first" was seen after "second", so it was kept: the same visit.
    visitors.countNow(of("first"), hit(5), none);
    // "second" was the least recent: forgotten, so it is a new visitor again.
    visitors.countNow(of("second"), hit(6), none);
    const total = tally.take().find((row) => row.dimension === "total");
    expect(total).toMatchObject({ views: 6, visits: 4, visitors: 4 });
  });
});

describe("the visitor hash", () => {
  it("is the HMAC-SHA256 of the address and user agent, keyed with the day's salt", () => {
    const salt = randomBytes(32);
    const hasher = viewHasher(salt);
    for (const [ip, agent] of [
      ["203.0.113.7", "Mozilla/5.0 (X11; Linux x86_64)"],
      ["2001:db8::1", "Mozilla/5.0 (iPhone) «ünïcode»"],
      ["", ""],
    ] as const) {
      expect(hasher(ip, agent).visitor).toBe(visitorHash(salt, ip, agent));
      const expected = createHmac("sha256", salt)
        .update(`${ip}\n${agent}`)
        .digest("base64url")
        .slice(0, 22);
      expect(hasher(ip, agent).visitor).toBe(expected);
    }
    expect(viewHasher(randomBytes(32))("203.0.113.7", "a").visitor).not.toBe(
      hasher("203.0.113.7", "a").visitor,
    );
  });

  it("counts an address by its keyed hash, an IPv6 address by its /64", () => {
    const salt = randomBytes(32);
    const one = addressHash(salt, "2001:db8:1:2:aaaa::1");
    expect(addressHash(salt, "2001:db8:1:2:bbbb::9")).toBe(one);
    expect(addressHash(salt, "2001:db8:1:3::1")).not.toBe(one);
    expect(addressHash(salt, "::ffff:203.0.113.7")).toBe(addressHash(salt, "203.0.113.7"));
    expect(addressHash(salt, "203.0.113.7")).not.toBe(addressHash(salt, "203.0.113.8"));
    expect(addressHash(randomBytes(32), "203.0.113.7")).not.toBe(addressHash(salt, "203.0.113.7"));
  });

  it("is made on the UTC day of the view", () => {
    expect(dayOf(Date.parse("2026-11-27T23:59:59.999Z"))).toBe("2026-11-27");
    expect(dayOf(Date.parse("2026-11-28T00:00:00.000Z"))).toBe("2026-11-28");
    expect(dayOf(Date.parse("2026-11-27T12:00:00.000Z"))).toBe("2026-11-27");
    expect(dayOf(Date.parse("1969-12-31T23:00:00.000Z"))).toBe("1969-12-31");
  });
});

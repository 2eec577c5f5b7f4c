import { describe, expect, it } from "vitest";
import {
  channelOf,
  cleanLeadSource,
  LEAD_SOURCE_LIMITS,
  referrerDomain,
  sourceOfFormPage,
} from "./lead-source.ts";
import { inquirySchema, subscribeBodySchema } from "./schemas.ts";

describe("channelOf", () => {
  it.each([
    ["google.com", "search"],
    ["www.google.co.uk", "search"],
    ["google.de", "search"],
    ["bing.com", "search"],
    ["duckduckgo.com", "search"],
    ["search.yahoo.com", "search"],
    ["baidu.com", "search"],
    ["yandex.ru", "search"],
    ["ecosia.org", "search"],
    ["startpage.com", "search"],
    ["qwant.com", "search"],
    ["search.brave.com", "search"],
    ["linkedin.com", "social"],
    ["lnkd.in", "social"],
    ["t.co", "social"],
    ["x.com", "social"],
    ["twitter.com", "social"],
    ["m.facebook.com", "social"],
    ["l.instagram.com", "social"],
    ["old.reddit.com", "social"],
    ["youtube.com", "social"],
    ["mail.google.com", "email"],
    ["outlook.live.com", "email"],
    ["mastodon.social", "other"],
    ["partner-firm.example", "other"],
    ["googleusercontent.example", "other"],
    ["ask.example.com", "other"],
  ])("groups a visit referred by %s as %s", (referrer, channel) => {
    expect(channelOf({ referrer })).toBe(channel);
  });

  it("takes a referrer as a whole address too", () => {
    expect(channelOf({ referrer: "https://www.google.com/search?q=consultancy" })).toBe("search");
  });

  it("says direct only with neither a referrer nor a UTM tag", () => {
    expect(channelOf({})).toBe("direct");
    expect(channelOf({ referrer: null, utmSource: null, utmMedium: null })).toBe("direct");
    expect(channelOf({ utmCampaign: "spring" } as never)).toBe("direct");
    expect(channelOf({ utmSource: "partner" })).toBe("other");
  });

  it("believes the UTM medium before the referrer", () => {
    expect(channelOf({ referrer: "google.com", utmMedium: "email" })).toBe("email");
    expect(channelOf({ utmSource: "insight", utmMedium: "email" })).toBe("email");
    expect(channelOf({ utmMedium: "Newsletter" })).toBe("email");
    expect(channelOf({ utmMedium: "social" })).toBe("social");
    expect(channelOf({ utmMedium: "cpc", utmSource: "google" })).toBe("search");
  });

  it("reads the UTM source's name when nothing else tells", () => {
    expect(channelOf({ utmSource: "linkedin" })).toBe("social");
    expect(channelOf({ utmSource: "LinkedIn", utmMedium: "post" })).toBe("social");
    expect(channelOf({ utmSource: "google" })).toBe("search");
    expect(channelOf({ utmSource: "newsletter" })).toBe("email");
    expect(channelOf({ utmSource: "x" })).toBe("social");
  });
});

describe("referrerDomain", () => {
  it.each([
    ["https://www.Google.com/search?q=1", "google.com"],
    ["google.com", "google.com"],
    ["news.ycombinator.com.", "news.ycombinator.com"],
    ["http://[::1]/", null],
    ["not a host", null],
    ["javascript:alert(1)", null],
    ["", null],
  ])("keeps %j as %j", (given, kept) => {
    expect(referrerDomain(given)).toBe(kept);
  });
});

describe("cleanLeadSource", () => {
  it("keeps every valid part, trimmed", () => {
    expect(
      cleanLeadSource({
        entryPage: "/weserve",
        referrer: "www.linkedin.com",
        utmSource: " linkedin ",
        utmMedium: "social",
        utmCampaign: "spring-2027",
      }),
    ).toEqual({
      entryPage: "/weserve",
      referrer: "linkedin.com",
      utmSource: "linkedin",
      utmMedium: "social",
      utmCampaign: "spring-2027",
    });
  });

  it("drops each part that breaks its rule and keeps the rest", () => {
    expect(
      cleanLeadSource({
        entryPage: "https://evil.example/",
        referrer: 42,
        utmSource: "x".repeat(LEAD_SOURCE_LIMITS.utmSource + 1),
        utmMedium: "line\nbreak",
        utmCampaign: "kept",
        channel: "search",
        extra: "ignored",
      }),
    ).toEqual({ utmCampaign: "kept" });
    expect(cleanLeadSource({ entryPage: "//evil.example/x" })).toBeUndefined();
  });

  it.each([null, "a string", 7, ["/"], {}, { entryPage: "" }])(
    "gives no source for %j",
    (given) => {
      expect(cleanLeadSource(given)).toBeUndefined();
    },
  );
});

describe("the schemas' source", () => {
  const inquiry = {
    firstName: "Ada",
    lastName: "Lovelace",
    email: "ada@example.com",
    phoneNumber: "+44 20 0000 0000",
    inquiryType: "Something Else",
    comments: "Hello",
  };

  it("never refuses an inquiry for its source", () => {
    for (const source of [42, "junk", [1], { entryPage: { deep: true } }, null]) {
      const parsed = inquirySchema.safeParse({ ...inquiry, source });
      expect(parsed.success).toBe(true);
      expect(parsed.data?.source).toBeUndefined();
    }
    expect(inquirySchema.parse({ ...inquiry, source: { entryPage: "/" } }).source).toEqual({
      entryPage: "/",
    });
  });

  it("reads any subscribe body, the original empty one included", () => {
    expect(subscribeBodySchema.parse(undefined)).toEqual({ source: undefined });
    expect(subscribeBodySchema.parse("text")).toEqual({ source: undefined });
    expect(subscribeBodySchema.parse({ source: { utmMedium: "email" } })).toEqual({
      source: { utmMedium: "email" },
    });
  });
});

describe("sourceOfFormPage", () => {
  it("takes the form's page as the entry page and its query's UTM tags", () => {
    expect(
      sourceOfFormPage(
        new URL("https://firm.example/contact-us?utm_source=x&utm_medium=y&utm_campaign=z&q=1"),
      ),
    ).toEqual({ entryPage: "/contact-us", utmSource: "x", utmMedium: "y", utmCampaign: "z" });
    expect(sourceOfFormPage(new URL("https://firm.example/insight"))).toEqual({
      entryPage: "/insight",
    });
  });
});

/**
 * Where a lead (an inquiry or a subscription) came from: the entry page of
 * the visit that produced it, the domain that referred that visit, its UTM
 * tags, and the channel they add up to. The browser keeps the first three
 * for the visit (web/lib/lead-source.ts) and sends them with a form; the
 * server cleans them (schemas.ts) and derives the channel here, so the
 * counting of visits and the leads use one grouping.
 *
 * Nothing here is typed by the visitor: a value that breaks a rule is
 * dropped, never a reason to refuse the post it came with.
 */

/** The source as a form sends it and the server keeps it; every part optional. */
export interface LeadSource {
  /** The path the visit began on, e.g. "/weserve" (no query). */
  entryPage?: string;
  /** The referring site's host, lower case, without "www." ("google.com"). */
  referrer?: string;
  utmSource?: string;
  utmMedium?: string;
  utmCampaign?: string;
}

export const LEAD_SOURCE_KEYS = [
  "entryPage",
  "referrer",
  "utmSource",
  "utmMedium",
  "utmCampaign",
] as const satisfies readonly (keyof LeadSource)[];

/** The longest value kept of each part: enough for any honest path, host or tag. */
export const LEAD_SOURCE_LIMITS: Readonly<Record<keyof LeadSource, number>> = {
  entryPage: 300,
  referrer: 253,
  utmSource: 100,
  utmMedium: 100,
  utmCampaign: 200,
};

export const CHANNELS = ["search", "social", "email", "direct", "other"] as const;
export type Channel = (typeof CHANNELS)[number];

export const CHANNEL_LABELS: Readonly<Record<Channel, string>> = {
  search: "Search",
  social: "Social",
  email: "E-mail",
  direct: "Direct",
  other: "Other",
};

/**
 * Search engines, by the name in their host: "google" matches google.com,
 * google.co.uk and www.google.de. A few run their search on a host of its
 * own (search.brave.com), named in full.
 */
const SEARCH_NAMES = [
  "google",
  "bing",
  "duckduckgo",
  "yahoo",
  "baidu",
  "yandex",
  "ecosia",
  "startpage",
  "qwant",
  "kagi",
  "naver",
  "seznam",
  "ask",
  "mojeek",
  "sogou",
];
const SEARCH_HOSTS = ["search.brave.com", "search.aol.com", "lite.duckduckgo.com"];

/**
 * Social sites, by name (as above) and by their own short hosts. Mastodon
 * and other federated servers cannot be listed: they count as "other".
 */
const SOCIAL_NAMES = [
  "linkedin",
  "twitter",
  "facebook",
  "instagram",
  "reddit",
  "youtube",
  "pinterest",
  "tiktok",
  "threads",
  "xing",
  "quora",
  "medium",
];
const SOCIAL_HOSTS = ["t.co", "x.com", "lnkd.in", "fb.com", "youtu.be", "bsky.app", "threads.net"];

/** Webmail readers: a click from a message read there says "e-mail", whoever sent it. */
const WEBMAIL_HOSTS = [
  "mail.google.com",
  "outlook.live.com",
  "outlook.office.com",
  "outlook.office365.com",
  "mail.yahoo.com",
  "mail.aol.com",
  "mail.proton.me",
  "mail.zoho.com",
  "app.fastmail.com",
  "webmail.gmx.net",
  "navigator-bs.gmx.com",
];

const EMAIL_MEDIUMS = ["email", "e-mail", "newsletter", "mail"];
const SOCIAL_MEDIUMS = ["social", "social-media", "social_media", "paid-social", "paid_social"];
const SEARCH_MEDIUMS = ["cpc", "ppc", "organic", "paid-search", "paid_search", "paidsearch", "sem"];

/** Whether `host` is `known` or one of its subdomains. */
function isHost(host: string, known: string): boolean {
  return host === known || host.endsWith(`.${known}`);
}

/**
 * Whether `host` is the site `name` under any public suffix: "name." then one
 * or two short labels (google.com, google.co.uk, yandex.ru), with any
 * subdomain before it (www., m., l.).
 */
function isNamedSite(host: string, name: string): boolean {
  const labels = host.split(".");
  const at = labels.lastIndexOf(name);
  if (at < 0) return false;
  const suffix = labels.slice(at + 1);
  return suffix.length >= 1 && suffix.length <= 2 && suffix.every((label) => label.length <= 3);
}

function groupOfHost(host: string): Channel | null {
  if (WEBMAIL_HOSTS.some((known) => isHost(host, known))) return "email";
  if (SEARCH_HOSTS.some((known) => isHost(host, known))) return "search";
  if (SEARCH_NAMES.some((name) => isNamedSite(host, name))) return "search";
  if (SOCIAL_HOSTS.some((known) => isHost(host, known))) return "social";
  if (SOCIAL_NAMES.some((name) => isNamedSite(host, name))) return "social";
  return null;
}

/** utm_source names a site by its bare name ("google", "linkedin", "x") or its host. */
function groupOfSourceName(source: string): Channel | null {
  if (EMAIL_MEDIUMS.includes(source)) return "email";
  if (SEARCH_NAMES.includes(source)) return "search";
  if (SOCIAL_NAMES.includes(source) || source === "x") return "social";
  return source.includes(".") ? groupOfHost(source) : null;
}

export interface ChannelInput {
  referrer?: string | null;
  utmSource?: string | null;
  utmMedium?: string | null;
}

/**
 * The channel of a visit: what the UTM medium says first (the sender tagged
 * the link on purpose), then the referring host, then the UTM source's name;
 * "direct" when there is neither a referrer nor a UTM tag, and "other" for
 * any referrer or tag none of these lists knows.
 */
export function channelOf({ referrer, utmSource, utmMedium }: ChannelInput): Channel {
  const medium = utmMedium?.trim().toLowerCase() ?? "";
  const source = utmSource?.trim().toLowerCase() ?? "";
  const host = referrerDomain(referrer ?? "") ?? "";
  if (EMAIL_MEDIUMS.includes(medium)) return "email";
  if (SOCIAL_MEDIUMS.includes(medium)) return "social";
  if (SEARCH_MEDIUMS.includes(medium)) return "search";
  const byHost = host ? groupOfHost(host) : null;
  if (byHost) return byHost;
  const bySource = source ? groupOfSourceName(source) : null;
  if (bySource) return bySource;
  return host || source || medium ? "other" : "direct";
}

/**
 * The domain a referrer is kept as: its host, lower case, without "www." and
 * a trailing dot. Takes a URL or a bare host; null for anything else.
 */
export function referrerDomain(value: string): string | null {
  const text = value.trim().toLowerCase();
  if (!text) return null;
  let host = text;
  if (text.includes("/") || text.includes(":")) {
    try {
      host = new URL(text.includes("//") ? text : `https://${text}`).hostname;
    } catch {
      return null;
    }
  }
  host = host.replace(/\.$/, "").replace(/^www\./, "");
  return /^[a-z0-9]([a-z0-9-]*[a-z0-9])?(\.[a-z0-9]([a-z0-9-]*[a-z0-9])?)*$/.test(host) &&
    host.length <= LEAD_SOURCE_LIMITS.referrer
    ? host
    : null;
}

/** No control characters (a tab, a newline, NUL) in any kept part. */
const CONTROL = /\p{Cc}/u;

/** One part as kept: trimmed, within its limit, free of control characters; else dropped. */
function cleanPart(key: keyof LeadSource, value: unknown): string | undefined {
  if (typeof value !== "string") return undefined;
  const text = value.trim();
  if (!text || text.length > LEAD_SOURCE_LIMITS[key] || CONTROL.test(text)) return undefined;
  if (key === "referrer") return referrerDomain(text) ?? undefined;
  if (key === "entryPage") return text.startsWith("/") && !text.startsWith("//") ? text : undefined;
  return text;
}

/**
 * The source as kept, from whatever a post brought: each part that breaks
 * its rule is dropped, unknown keys are ignored, and anything but an object
 * is no source at all (undefined). Undefined too when no part is left.
 */
export function cleanLeadSource(value: unknown): LeadSource | undefined {
  if (typeof value !== "object" || value === null || Array.isArray(value)) return undefined;
  const given = value as Record<string, unknown>;
  const kept: LeadSource = {};
  for (const key of LEAD_SOURCE_KEYS) {
    const part = cleanPart(key, given[key]);
    if (part !== undefined) kept[key] = part;
  }
  return Object.keys(kept).length > 0 ? kept : undefined;
}

/**
 * The source of a post made without JavaScript, from the address of the
 * page that held the form (the post's Referer): that page is the entry page
 * and its query carries the UTM tags; the visit's own referrer is not known.
 */
export function sourceOfFormPage(pageUrl: URL): LeadSource | undefined {
  const query = pageUrl.searchParams;
  return cleanLeadSource({
    entryPage: pageUrl.pathname,
    utmSource: query.get("utm_source") ?? undefined,
    utmMedium: query.get("utm_medium") ?? undefined,
    utmCampaign: query.get("utm_campaign") ?? undefined,
  });
}

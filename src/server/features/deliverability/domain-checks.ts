/**
 * Checks of the firm's domain as receiving servers see it: SPF of the
 * envelope domain and how many DNS lookups it takes, the DKIM public key
 * against the configured private key, the DMARC policy and whether the
 * signature and the envelope align with the From domain, and the bounce
 * domain's MX. Each check says pass, warn or fail, and what to publish.
 */
import { createPublicKey } from "node:crypto";
import { Resolver } from "node:dns/promises";
import { getDomain } from "tldts";

export type CheckState = "pass" | "warn" | "fail";

export interface DnsRecord {
  type: "TXT" | "MX";
  name: string;
  value: string;
}

export interface DomainCheck {
  name: "spf" | "dkim" | "dmarc" | "bounce-mx";
  state: CheckState;
  /** What is published now, as found. */
  found: string | null;
  /** What the state means, in the firm's words. */
  detail: string;
  /** The record to publish (or to publish instead) when the check does not pass. */
  publish: DnsRecord | null;
}

export interface DomainSettings {
  /** The From address's domain (the mail settings' sender, else MAIL_FROM). */
  fromDomain: string;
  /** The envelope sender's domain: the bounce address's, or the From domain without one. */
  envelopeDomain: string;
  /** The bounce address's domain, whose MX must accept the reports; null without BOUNCE_ADDRESS. */
  bounceDomain: string | null;
  dkim: { domain: string; selector: string; privateKey: string } | null;
}

/** A resolver on the given servers (DNS_SERVERS), or the system's. */
export function dnsResolver(servers: readonly string[] = []): Resolver {
  const resolver = new Resolver({ timeout: 3000, tries: 2 });
  if (servers.length > 0) resolver.setServers([...servers]);
  return resolver;
}

/** No record is not an error here: it is what the check reports. */
function isMissing(error: unknown): boolean {
  const code = (error as { code?: string } | undefined)?.code;
  return code === "ENOTFOUND" || code === "ENODATA";
}

async function txtRecords(resolver: Resolver, name: string): Promise<string[]> {
  try {
    return (await resolver.resolveTxt(name)).map((strings) => strings.join(""));
  } catch (error) {
    if (isMissing(error)) return [];
    throw error;
  }
}

/** Whether two domains share their organisational domain (DMARC's relaxed alignment). */
export function aligned(a: string, b: string): boolean {
  return (getDomain(a) ?? a).toLowerCase() === (getDomain(b) ?? b).toLowerCase();
}

/** The most DNS lookups an SPF check may take before receivers give up (RFC 7208). */
const SPF_LOOKUP_LIMIT = 10;
/** An address no one sends from (TEST-NET-1): evaluated for it, SPF reads every include. */
const NOBODY = "192.0.2.1";

async function checkSpf(resolver: Resolver, domain: string): Promise<DomainCheck> {
  const records = (await txtRecords(resolver, domain)).filter((text) => /^v=spf1\b/i.test(text));
  const publish: DnsRecord = {
    type: "TXT",
    name: domain,
    value: "v=spf1 include:<your mail provider's SPF domain> -all",
  };
  if (records.length === 0) {
    return {
      name: "spf",
      state: "fail",
      found: null,
      detail: `${domain} publishes no SPF record: receivers cannot tell which servers may send its mail.`,
      publish,
    };
  }
  if (records.length > 1) {
    return {
      name: "spf",
      state: "fail",
      found: records.join(" | "),
      detail: `${domain} publishes ${records.length} SPF records; receivers treat that as an error. Merge them into one.`,
      publish,
    };
  }
  // Loaded when an owner first checks the domain: it is large, and a start need not wait for it.
  const { spf } = await import("mailauth");
  const result = await spf({
    sender: `postmaster@${domain}`,
    ip: NOBODY,
    helo: domain,
    mta: "sending-health",
    // Counted past the limit, so the page can say by how much.
    maxResolveCount: 50,
    resolver: (name: string, type: string) => resolver.resolve(name, type) as Promise<never>,
  });
  const lookups =
    (result.lookups?.count ?? 0) +
    Object.values(result.lookups?.subqueries ?? {}).reduce((sum, count) => sum + count, 0);
  const found = records[0] ?? null;
  if (lookups > SPF_LOOKUP_LIMIT) {
    return {
      name: "spf",
      state: "fail",
      found,
      detail: `The SPF record of ${domain} takes ${lookups} DNS lookups; receivers stop at ${SPF_LOOKUP_LIMIT} and then treat the mail as unauthenticated. Remove includes you no longer use.`,
      publish: null,
    };
  }
  return {
    name: "spf",
    state: "pass",
    found,
    detail: `${domain} publishes one SPF record, taking ${lookups} of ${SPF_LOOKUP_LIMIT} DNS lookups.`,
    publish: null,
  };
}

/** The public key of a PEM private key, as DKIM's p= tag writes it. */
export function dkimPublicKey(privateKey: string): string {
  return createPublicKey(privateKey).export({ type: "spki", format: "der" }).toString("base64");
}

function dkimTags(text: string): Map<string, string> {
  return new Map(
    text
      .split(";")
      .map((part) => part.trim())
      .filter((part) => part.includes("="))
      .map((part) => {
        const at = part.indexOf("=");
        return [part.slice(0, at).trim().toLowerCase(), part.slice(at + 1).replace(/\s+/g, "")];
      }),
  );
}

async function checkDkim(resolver: Resolver, settings: DomainSettings): Promise<DomainCheck> {
  const { dkim, fromDomain } = settings;
  if (!dkim) {
    return {
      name: "dkim",
      state: "fail",
      found: null,
      detail:
        "Mail is not signed: set DKIM_DOMAIN, DKIM_SELECTOR and DKIM_PRIVATE_KEY_FILE, and publish the public key.",
      publish: null,
    };
  }
  const name = `${dkim.selector}._domainkey.${dkim.domain}`;
  const expected = dkimPublicKey(dkim.privateKey);
  const publish: DnsRecord = { type: "TXT", name, value: `v=DKIM1; k=rsa; p=${expected}` };
  const found = (await txtRecords(resolver, name))[0] ?? null;
  const published = found ? dkimTags(found).get("p") : undefined;
  if (!found || !published) {
    return {
      name: "dkim",
      state: "fail",
      found,
      detail: `No DKIM public key at ${name}: receivers cannot check the signature.`,
      publish,
    };
  }
  if (published !== expected) {
    return {
      name: "dkim",
      state: "fail",
      found,
      detail: `The key published at ${name} is not the one the site signs with: every signature fails.`,
      publish,
    };
  }
  if (!aligned(dkim.domain, fromDomain)) {
    return {
      name: "dkim",
      state: "warn",
      found,
      detail: `Signatures are valid but for ${dkim.domain}, not the From domain ${fromDomain}: DMARC does not count them.`,
      publish: null,
    };
  }
  return {
    name: "dkim",
    state: "pass",
    found,
    detail: `The key at ${name} matches the site's, and ${dkim.domain} aligns with the From domain.`,
    publish: null,
  };
}

async function checkDmarc(resolver: Resolver, settings: DomainSettings): Promise<DomainCheck> {
  const { fromDomain, envelopeDomain, dkim } = settings;
  const organisational = getDomain(fromDomain) ?? fromDomain;
  const publish: DnsRecord = {
    type: "TXT",
    name: `_dmarc.${organisational}`,
    value: `v=DMARC1; p=quarantine; rua=mailto:dmarc@${organisational}`,
  };
  const own = (await txtRecords(resolver, `_dmarc.${fromDomain}`)).filter((text) =>
    /^v=DMARC1\b/i.test(text),
  );
  const records =
    own.length > 0 || organisational === fromDomain
      ? own
      : (await txtRecords(resolver, `_dmarc.${organisational}`)).filter((text) =>
          /^v=DMARC1\b/i.test(text),
        );
  const found = records[0] ?? null;
  if (!found) {
    return {
      name: "dmarc",
      state: "fail",
      found: null,
      detail: `${fromDomain} publishes no DMARC policy: Gmail and Yahoo require one of bulk senders.`,
      publish,
    };
  }
  const policy = dkimTags(found).get("p")?.toLowerCase() ?? "none";
  const dkimAligned = dkim !== null && aligned(dkim.domain, fromDomain);
  const spfAligned = aligned(envelopeDomain, fromDomain);
  if (!dkimAligned && !spfAligned) {
    return {
      name: "dmarc",
      state: "fail",
      found,
      detail: `Neither the DKIM signature nor the envelope domain ${envelopeDomain} aligns with the From domain ${fromDomain}: DMARC fails for every message.`,
      publish: null,
    };
  }
  if (policy === "none") {
    return {
      name: "dmarc",
      state: "warn",
      found,
      detail: `The policy is p=none: receivers only report. Once the reports show only your own services, move to p=quarantine.`,
      publish,
    };
  }
  return {
    name: "dmarc",
    state: "pass",
    found,
    detail: `The policy is p=${policy}, and ${[dkimAligned ? "the DKIM signature" : "", spfAligned ? "the envelope domain" : ""].filter(Boolean).join(" and ")} align with ${fromDomain}.`,
    publish: null,
  };
}

async function checkBounceMx(resolver: Resolver, domain: string | null): Promise<DomainCheck> {
  if (!domain) {
    return {
      name: "bounce-mx",
      state: "warn",
      found: null,
      detail:
        "No bounce address is set (BOUNCE_ADDRESS): reports go to the From address and nothing reads them.",
      publish: null,
    };
  }
  let exchanges: { exchange: string; priority: number }[] = [];
  try {
    exchanges = await resolver.resolveMx(domain);
  } catch (error) {
    if (!isMissing(error)) throw error;
  }
  const found =
    exchanges
      .sort((a, b) => a.priority - b.priority)
      .map(({ exchange, priority }) => `${priority} ${exchange}`)
      .join(", ") || null;
  return found
    ? {
        name: "bounce-mx",
        state: "pass",
        found,
        detail: `Reports to ${domain} are accepted by ${found}.`,
        publish: null,
      }
    : {
        name: "bounce-mx",
        state: "fail",
        found: null,
        detail: `${domain} has no MX record: reports about sent mail cannot come back.`,
        publish: { type: "MX", name: domain, value: "10 <your mail provider's inbound server>" },
      };
}

export async function checkDomain(
  resolver: Resolver,
  settings: DomainSettings,
): Promise<DomainCheck[]> {
  return Promise.all([
    checkSpf(resolver, settings.envelopeDomain),
    checkDkim(resolver, settings),
    checkDmarc(resolver, settings),
    checkBounceMx(resolver, settings.bounceDomain),
  ]);
}

/**
 * The checks of the firm's domain against a DNS server on the loopback
 * serving test zones: a domain set up as docs/operations/mail.md says passes every
 * check; each way of getting it wrong fails (or warns) with what to
 * publish instead.
 */
import { generateKeyPairSync } from "node:crypto";
import { afterEach, describe, expect, it } from "vitest";
import { startDns, type TestDns, type ZoneRecords } from "../../../../test/support/dns-server.ts";
import {
  checkDomain,
  type DomainCheck,
  type DomainSettings,
  dkimPublicKey,
  dnsResolver,
} from "./domain-checks.ts";

const pem = (key: ReturnType<typeof generateKeyPairSync>["privateKey"]) =>
  key.export({ type: "pkcs8", format: "pem" }).toString();
const SIGNING_KEY = pem(generateKeyPairSync("rsa", { modulusLength: 2048 }).privateKey);
const OTHER_KEY = pem(generateKeyPairSync("rsa", { modulusLength: 2048 }).privateKey);

const SETTINGS: DomainSettings = {
  fromDomain: "firm.example",
  envelopeDomain: "mail.firm.example",
  bounceDomain: "mail.firm.example",
  dkim: { domain: "firm.example", selector: "insight", privateKey: SIGNING_KEY },
};

/** The zones of a domain set up as docs/operations/mail.md says. */
function soundZones(): Record<string, ZoneRecords> {
  return {
    "mail.firm.example": {
      TXT: ["v=spf1 include:_spf.provider.test -all"],
      MX: [{ exchange: "inbound.provider.test", priority: 10 }],
    },
    "_spf.provider.test": { TXT: ["v=spf1 ip4:203.0.113.0/24 -all"] },
    "insight._domainkey.firm.example": {
      TXT: [`v=DKIM1; k=rsa; p=${dkimPublicKey(SIGNING_KEY)}`],
    },
    "_dmarc.firm.example": { TXT: ["v=DMARC1; p=quarantine; rua=mailto:dmarc@firm.example"] },
  };
}

let dns: TestDns | undefined;
afterEach(async () => {
  await dns?.close();
  dns = undefined;
});

async function checks(
  zones: Record<string, ZoneRecords>,
  settings: DomainSettings = SETTINGS,
): Promise<Record<DomainCheck["name"], DomainCheck>> {
  dns = await startDns(zones);
  const results = await checkDomain(dnsResolver([dns.server]), settings);
  return Object.fromEntries(results.map((check) => [check.name, check])) as Record<
    DomainCheck["name"],
    DomainCheck
  >;
}

describe("the firm's domain, checked", () => {
  it("passes a domain set up as docs/operations/mail.md says", async () => {
    const found = await checks(soundZones());
    expect(Object.values(found).map(({ name, state }) => [name, state])).toEqual([
      ["spf", "pass"],
      ["dkim", "pass"],
      ["dmarc", "pass"],
      ["bounce-mx", "pass"],
    ]);
    expect(found.spf.detail).toBe(
      "mail.firm.example publishes one SPF record, taking 1 of 10 DNS lookups.",
    );
    expect(found["bounce-mx"].found).toBe("10 inbound.provider.test");
  });

  it("fails an SPF record that takes more than ten lookups, saying how many", async () => {
    const zones = soundZones();
    // A chain of includes, each one a lookup: twelve in all.
    zones["mail.firm.example"] = {
      ...zones["mail.firm.example"],
      TXT: ["v=spf1 include:s0.provider.test -all"],
    };
    for (let n = 0; n < 12; n += 1) {
      zones[`s${n}.provider.test`] = {
        TXT: [
          n < 11 ? `v=spf1 include:s${n + 1}.provider.test -all` : "v=spf1 ip4:203.0.113.1 -all",
        ],
      };
    }
    const { spf } = await checks(zones);
    expect(spf.state).toBe("fail");
    expect(spf.detail).toMatch(/takes 12 DNS lookups; receivers stop at 10/);
  });

  it("fails a missing SPF record and gives the record to publish", async () => {
    const zones = soundZones();
    zones["mail.firm.example"] = { MX: zones["mail.firm.example"]?.MX ?? [] };
    const { spf } = await checks(zones);
    expect(spf).toMatchObject({ state: "fail", found: null });
    expect(spf.publish).toEqual({
      type: "TXT",
      name: "mail.firm.example",
      value: "v=spf1 include:<your mail provider's SPF domain> -all",
    });
  });

  it("fails a DKIM key that is not the site's, and gives the right one", async () => {
    const zones = soundZones();
    zones["insight._domainkey.firm.example"] = {
      TXT: [`v=DKIM1; k=rsa; p=${dkimPublicKey(OTHER_KEY)}`],
    };
    const { dkim, dmarc } = await checks(zones);
    expect(dkim.state).toBe("fail");
    expect(dkim.detail).toMatch(/is not the one the site signs with/);
    expect(dkim.publish?.value).toBe(`v=DKIM1; k=rsa; p=${dkimPublicKey(SIGNING_KEY)}`);
    // The envelope domain still aligns, so DMARC can pass on SPF alone.
    expect(dmarc.state).toBe("pass");
  });

  it("fails without a DMARC policy, and warns of p=none", async () => {
    const zones = soundZones();
    delete zones["_dmarc.firm.example"];
    expect((await checks(zones)).dmarc).toMatchObject({
      state: "fail",
      publish: {
        type: "TXT",
        name: "_dmarc.firm.example",
        value: "v=DMARC1; p=quarantine; rua=mailto:dmarc@firm.example",
      },
    });
    await dns?.close();
    zones["_dmarc.firm.example"] = { TXT: ["v=DMARC1; p=none"] };
    expect((await checks(zones)).dmarc.state).toBe("warn");
  });

  it("fails DMARC when neither the signature nor the envelope aligns with From", async () => {
    const { dmarc } = await checks(soundZones(), {
      ...SETTINGS,
      envelopeDomain: "bounces.provider.test",
      dkim: null,
    });
    expect(dmarc.state).toBe("fail");
    expect(dmarc.detail).toMatch(/Neither the DKIM signature nor the envelope domain/);
  });

  it("fails a bounce domain without an MX", async () => {
    const zones = soundZones();
    zones["mail.firm.example"] = { TXT: zones["mail.firm.example"]?.TXT ?? [] };
    const mx = (await checks(zones))["bounce-mx"];
    expect(mx).toMatchObject({ state: "fail", found: null });
    expect(mx.publish?.type).toBe("MX");
  });
});

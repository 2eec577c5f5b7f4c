/**
 * The console's "Sending health" answer, through the real app on both
 * engines: the domain's checks asked of a DNS server on the loopback, the
 * figures of a send that met two refusals, and the page kept to owners.
 */
import { generateKeyPairSync } from "node:crypto";
import { mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { dkimPublicKey } from "../../../src/server/features/deliverability/index.ts";
import {
  SENDING_HEALTH_PATH,
  type SendingHealth,
} from "../../../src/shared/admin/sending-health.ts";
import { startApp, type TestApp } from "../../support/app.ts";
import { type ConsoleClient, createAccount, signIn } from "../../support/console.ts";
import { startDns, type TestDns } from "../../support/dns-server.ts";
import { ENGINES } from "../../support/engines.ts";
import { mailTo } from "../../support/mail-env.ts";
import { addSubscribers, scheduleIssue } from "../../support/newsletter.ts";
import { startSmtp, type TestSmtp } from "../../support/smtp.ts";

const privateKey = generateKeyPairSync("rsa", { modulusLength: 2048 })
  .privateKey.export({ type: "pkcs8", format: "pem" })
  .toString();

describe.each(ENGINES)("sending health on $engine", (engine) => {
  const gone = ["reader-2@example.com", "reader-5@example.com"];
  let dns: TestDns;
  let smtp: TestSmtp;
  let t: TestApp;
  let owner: ConsoleClient;
  let editor: ConsoleClient;

  beforeAll(async () => {
    dns = await startDns({
      "mail.firm.example": {
        TXT: ["v=spf1 ip4:203.0.113.0/24 -all"],
        MX: [{ exchange: "inbound.provider.test", priority: 10 }],
      },
      "insight._domainkey.firm.example": {
        TXT: [`v=DKIM1; k=rsa; p=${dkimPublicKey(privateKey)}`],
      },
      "_dmarc.firm.example": { TXT: ["v=DMARC1; p=none"] },
    });
    const keyFile = join(mkdtempSync(join(tmpdir(), "dkim-")), "private.pem");
    writeFileSync(keyFile, privateKey);
    smtp = await startSmtp({ unknownRecipients: gone });
    t = await startApp(
      engine,
      mailTo(smtp.url, {
        MAIL_FROM: '"The Firm" <insight@firm.example>',
        BOUNCE_ADDRESS: "bounces@mail.firm.example",
        DKIM_DOMAIN: "firm.example",
        DKIM_SELECTOR: "insight",
        DKIM_PRIVATE_KEY_FILE: keyFile,
        DNS_SERVERS: dns.server,
        NEWSLETTER_RATE_PER_SECOND: "100",
      }),
    );
    await createAccount(t.database, "owner", "boss@firm.example");
    await createAccount(t.database, "editor", "writer@firm.example");
    owner = await signIn(t.app, "boss@firm.example");
    editor = await signIn(t.app, "writer@firm.example");
    await addSubscribers(t.database, "reader", 10);
  });
  afterAll(async () => {
    await t.close();
    await smtp.close();
    await dns.close();
  });

  it("checks the domain and counts what came back, for owners only", async () => {
    const issue = await scheduleIssue(t.database, "health", 100);
    await expect
      .poll(
        async () =>
          (
            await t.database.db
              .selectFrom("issues")
              .select("status")
              .where("id", "=", issue.id)
              .executeTakeFirstOrThrow()
          ).status,
      )
      .toBe("sent");

    const response = await owner.request("GET", SENDING_HEALTH_PATH);
    expect(response.statusCode).toBe(200);
    const health = response.json() as SendingHealth;
    expect(health.checks?.map(({ name, state }) => `${name}:${state}`)).toEqual([
      "spf:pass",
      "dkim:pass",
      "dmarc:warn",
      "bounce-mx:pass",
    ]);
    expect(health.checksUnavailable).toBeNull();
    const figures = { delivered: 8, hardBounces: 2, softBounces: 0, complaints: 0 };
    expect(health.issues).toEqual([
      expect.objectContaining({ id: issue.id, ...figures, hardBounceRate: 25, complaintRate: 0 }),
    ]);
    expect(health.lastThirtyDays).toMatchObject({ ...figures, suppressed: 2 });

    expect((await editor.request("GET", SENDING_HEALTH_PATH)).statusCode).toBe(403);
  });
});

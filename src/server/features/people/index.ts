/**
 * People: signing in to the console (passwords, sessions, second factor,
 * resets), the console's accounts and invitations, each person's own
 * account, and the audit log's screen. What the rest of the server may use
 * of this feature.
 */
import type { FastifyInstance } from "fastify";
import fp from "fastify-plugin";
import { type AdminAreaOptions, sessionLimitsOf } from "../../platform/console/area.ts";
import { currentMailSettings, type MailDefaultSettings } from "../mail-settings/index.ts";
import peopleRoutes from "./console.ts";
import { AccountMail } from "./mail.tsx";
import type { PeopleSettings } from "./server-settings.ts";
import signInRoutes from "./sign-in-routes.ts";
import { purgeUsedRecoveryCodes } from "./totp.ts";
import { purgeSpentUserTokens } from "./user-tokens.ts";

const DAY_MS = 24 * 60 * 60 * 1000;

declare module "fastify" {
  interface FastifyInstance {
    /** Queues an invitation or a reset link inside its token's transaction. */
    accountMail: AccountMail;
  }
}

export interface PeopleOptions extends AdminAreaOptions<PeopleSettings & MailDefaultSettings> {
  /** The server's signing secret: signs the cookie a browser that signed in before is known by. */
  secret: string;
  /** The clock sign-in locks are counted by (epoch ms); the real one unless a test passes its own. */
  now?: () => number;
}

export default fp(
  async function people(
    app: FastifyInstance,
    { config, database, secret, now = Date.now }: PeopleOptions,
  ) {
    app.decorate(
      "accountMail",
      new AccountMail({
        publicOrigin: config.PUBLIC_ORIGIN,
        sender: async (trx) => (await currentMailSettings(trx, config)).from,
      }),
    );
    await app.register(signInRoutes, {
      database,
      limits: sessionLimitsOf(config),
      throttle: {
        freeFailures: config.SIGN_IN_FREE_FAILURES,
        lockMs: config.SIGN_IN_LOCK_SECONDS * 1000,
      },
      serverSecret: secret,
      now,
    });
    await app.register(peopleRoutes, { config, database });
    // Spent links and codes open nothing; they go TOKEN_RETENTION_DAYS after they were spent.
    const keptMs = config.TOKEN_RETENTION_DAYS * DAY_MS;
    app.dailyPurge.add({
      what: "used and expired account links",
      run: (at) => purgeSpentUserTokens(database.db, keptMs, at),
    });
    app.dailyPurge.add({
      what: "used recovery codes",
      run: (at) => purgeUsedRecoveryCodes(database.db, keptMs, at),
    });
  },
  { name: "people", dependencies: ["console", "outbox", "mail-settings", "daily-purge"] },
);

export { AccountMail } from "./mail.tsx";
export { hashPassword } from "./passwords.ts";
export { TOTP_QR_OPTIONS } from "./totp-qr-code.ts";
export { issueUserToken } from "./user-tokens.ts";

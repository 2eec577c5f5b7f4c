/** Runs the outbox sender of a test app against a test SMTP server, fast. */
import { OutboxSender, type RetryPolicy } from "../../src/server/mail/outbox-sender.ts";
import { smtpMailer } from "../../src/server/mail/transport.ts";
import type { TestApp } from "./app.ts";

export const FAST_POLICY: RetryPolicy = {
  pollMs: 50,
  maxAttempts: 10,
  retryBaseMs: 20,
  retryMaxMs: 200,
  leaseMs: 60_000,
};

export function startSender(t: TestApp, smtpUrl: string, policy: Partial<RetryPolicy> = {}) {
  const mailer = smtpMailer(smtpUrl);
  const sender = new OutboxSender({
    db: t.database.db,
    engine: t.database.engine,
    mailer,
    log: t.app.log,
    policy: { ...FAST_POLICY, ...policy },
  });
  t.app.mailQueue.onQueued = () => sender.wake();
  sender.start();
  return {
    sender,
    async stop() {
      await sender.stop();
      mailer.close();
    },
  };
}

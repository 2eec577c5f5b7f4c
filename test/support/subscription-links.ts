/**
 * The links a subscription's e-mails carry, taken as a reader takes them:
 * the unsubscribe link of its mail, and the confirmation link of the mail
 * the subscriptions feature queues for an address that waits for it.
 */
import {
  findSubscription,
  type Subscription,
  unsubscribeUrl,
} from "../../src/server/features/subscriptions/index.ts";
import { signingSecret } from "../../src/server/platform/security/signing-secret.ts";
import { CONFIRM_SUBSCRIPTION_PATH } from "../../src/shared/routes.ts";
import type { TestApp } from "./app.ts";

async function subscriptionOf(t: TestApp, id: number): Promise<Subscription> {
  const subscription = await findSubscription(t.database.db, id);
  if (!subscription) throw new Error(`there is no subscription ${id}`);
  return subscription;
}

/** The token of the subscription's unsubscribe link. */
export async function unsubscribeToken(t: TestApp, id: number): Promise<string> {
  const secret = await signingSecret(t.database.db, t.config.UNSUBSCRIBE_SECRET);
  const link = unsubscribeUrl(t.config.PUBLIC_ORIGIN, secret, await subscriptionOf(t, id));
  return new URL(link).searchParams.get("token") ?? "";
}

/** Ends the subscription as a mail program's one-click unsubscribe does. */
export async function unsubscribeByOneClick(t: TestApp, id: number): Promise<void> {
  const answer = await t.app.inject({
    method: "POST",
    url: `/unsubscribe?token=${await unsubscribeToken(t, id)}`,
    headers: { "content-type": "application/x-www-form-urlencoded" },
    payload: "List-Unsubscribe=One-Click",
  });
  if (answer.statusCode !== 200) throw new Error(`one-click unsubscribe: ${answer.statusCode}`);
}

/** The token of a fresh confirmation link for the subscription, from the mail that carries it. */
export async function confirmToken(t: TestApp, id: number): Promise<string> {
  const subscription = await subscriptionOf(t, id);
  const queued = await t.app.withOutbox(async (trx) => {
    const before = await trx
      .selectFrom("outbox")
      .select((eb) => eb.fn.max("id").as("id"))
      .executeTakeFirst();
    await t.app.subscriptionMail.confirmation(trx, subscription, 1);
    return trx
      .selectFrom("outbox")
      .select("message")
      .where("id", ">", Number(before?.id ?? 0))
      .where("kind", "=", "subscription-confirmation")
      .executeTakeFirstOrThrow();
  });
  const { text } = JSON.parse(queued.message) as { text: string };
  const token = /token=([\w.-]+)/.exec(text.slice(text.indexOf(CONFIRM_SUBSCRIPTION_PATH)))?.[1];
  if (!token) throw new Error("the confirmation mail carries no link");
  return token;
}

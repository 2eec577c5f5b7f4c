/**
 * Storing an inquiry, used by the API route and by the form posted without
 * JavaScript alike: the row and the mail it causes commit in one
 * transaction (withOutbox), so both ways store the same row and queue the
 * same mail.
 */
import type { FastifyInstance } from "fastify";
import type { Inquiry } from "../../../shared/schemas.ts";
import type { SourceKnowledge } from "../../platform/db/lead-source.ts";
import { inquiryReceived } from "../webhooks/index.ts";
import { insertInquiry, linkNotification } from "./queries.ts";

/** What storing an inquiry needs of the app: the outbox's transaction, this feature's mail and the webhooks. */
export type InquiryWriter = Pick<FastifyInstance, "withOutbox" | "inquiryMail" | "webhookEvents">;

/**
 * Stores an inquiry (already validated) and queues its notification; its id.
 * The notification links to the inquiry in the console, and the inquiry
 * names its notification, so the inbox can tell whether the firm was told.
 */
export function storeInquiry(
  app: InquiryWriter,
  inquiry: Inquiry,
  knowledge: SourceKnowledge = {},
): Promise<number> {
  return app.withOutbox(async (trx) => {
    const id = await insertInquiry(trx, inquiry, knowledge);
    await linkNotification(trx, id, await app.inquiryMail.queue(trx, inquiry, id));
    await app.webhookEvents.announce(trx, inquiryReceived(app.webhookEvents.origin, id, inquiry));
    return id;
  });
}

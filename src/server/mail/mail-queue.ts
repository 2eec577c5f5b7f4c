/**
 * Queues the e-mails that visitors' actions cause, inside the caller's
 * transaction, so a message exists exactly when the row it is about does.
 */
import type { Kysely } from "kysely";
import type { Inquiry } from "../../shared/inquiry.ts";
import { enqueueMail } from "../db/outbox.ts";
import type { Database } from "../db/schema.ts";
import type { Subscription } from "../db/subscriptions.ts";
import { signUnsubscribeToken } from "../security/unsubscribe-token.ts";
import {
  inquiryAcknowledgement,
  inquiryNotification,
  type MailSettings,
  welcome,
} from "./templates.ts";

export interface MailQueueOptions extends MailSettings {
  acknowledgeInquiries: boolean;
  publicOrigin: string;
  unsubscribeSecret: string;
}

export class MailQueue {
  /** Called after a transaction that queued mail has committed; the sender wakes. */
  onQueued: () => void = () => {};

  constructor(private readonly options: MailQueueOptions) {}

  async inquiry(db: Kysely<Database>, inquiry: Inquiry): Promise<void> {
    await enqueueMail(db, "inquiry-notification", inquiryNotification(inquiry, this.options));
    if (this.options.acknowledgeInquiries) {
      await enqueueMail(
        db,
        "inquiry-acknowledgement",
        inquiryAcknowledgement(inquiry, this.options),
      );
    }
  }

  async welcome(db: Kysely<Database>, subscription: Subscription): Promise<void> {
    await enqueueMail(
      db,
      "welcome",
      welcome(subscription.email, this.unsubscribeUrl(subscription), this.options),
    );
  }

  unsubscribeUrl(subscription: Subscription): string {
    const url = new URL("/unsubscribe", this.options.publicOrigin);
    url.searchParams.set(
      "token",
      signUnsubscribeToken(this.options.unsubscribeSecret, subscription),
    );
    return url.toString();
  }
}

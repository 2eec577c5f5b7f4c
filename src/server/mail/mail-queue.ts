/**
 * Queues the e-mails that visitors' actions cause, inside the caller's
 * outbox transaction, so a message exists exactly when the row it is about does.
 */
import type { Inquiry } from "../../shared/inquiry.ts";
import { enqueueMail, type OutboxTransaction } from "../db/outbox.ts";
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
  constructor(private readonly options: MailQueueOptions) {}

  async inquiry(trx: OutboxTransaction, inquiry: Inquiry): Promise<void> {
    await enqueueMail(trx, "inquiry-notification", inquiryNotification(inquiry, this.options));
    if (this.options.acknowledgeInquiries) {
      await enqueueMail(
        trx,
        "inquiry-acknowledgement",
        inquiryAcknowledgement(inquiry, this.options),
      );
    }
  }

  async welcome(trx: OutboxTransaction, subscription: Subscription): Promise<void> {
    await enqueueMail(
      trx,
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

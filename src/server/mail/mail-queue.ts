/**
 * Queues the e-mails that visitors' actions cause, inside the caller's
 * outbox transaction, so a message exists exactly when the row it is about does.
 */

import { SET_PASSWORD_PAGE } from "../../shared/admin/auth.ts";
import type { Inquiry } from "../../shared/inquiry.ts";
import { CONFIRM_SUBSCRIPTION_PATH } from "../../shared/routes.ts";
import { enqueueMail, type OutboxTransaction } from "../db/outbox.ts";
import type { UserTokenPurpose } from "../db/schema.ts";
import type { Subscription } from "../db/subscriptions.ts";
import { signConfirmToken } from "../security/confirm-token.ts";
import { unsubscribeUrl } from "../security/unsubscribe-token.ts";
import {
  accountLink,
  inquiryAcknowledgement,
  inquiryNotification,
  type MailSettings,
  subscriptionConfirmation,
  welcome,
} from "./templates.ts";

export interface MailQueueOptions extends MailSettings {
  acknowledgeInquiries: boolean;
  publicOrigin: string;
  signingSecret: string;
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

  /** Double opt-in: the link that confirms a new subscription, working for `validHours`. */
  async subscriptionConfirmation(
    trx: OutboxTransaction,
    subscription: Subscription,
    validHours: number,
  ): Promise<void> {
    const url = new URL(CONFIRM_SUBSCRIPTION_PATH, this.options.publicOrigin);
    url.searchParams.set("token", signConfirmToken(this.options.signingSecret, subscription));
    await enqueueMail(
      trx,
      "subscription-confirmation",
      subscriptionConfirmation(subscription.email, url.toString(), validHours, this.options),
    );
  }

  /** Queues an invitation or reset link; returns the link (the CLI prints it too). */
  async accountLink(
    trx: OutboxTransaction,
    purpose: UserTokenPurpose,
    to: string,
    token: string,
  ): Promise<string> {
    const link = `${new URL(SET_PASSWORD_PAGE, this.options.publicOrigin)}#token=${token}`;
    await enqueueMail(trx, `account-${purpose}`, accountLink(purpose, to, link, this.options));
    return link;
  }

  unsubscribeUrl(subscription: Subscription): string {
    return unsubscribeUrl(this.options.publicOrigin, this.options.signingSecret, subscription);
  }
}

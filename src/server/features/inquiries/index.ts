/**
 * Inquiries: the contact form's write and the mail it makes, the console's
 * inbox, and the owners' alarm when the firm was not notified of one. What
 * the rest of the server may use of this feature.
 */
import type { FastifyInstance } from "fastify";
import fp from "fastify-plugin";
import type { AdminAreaOptions } from "../../platform/console/area.ts";
import { currentMailSettings, type MailDefaultSettings } from "../mail-settings/index.ts";
import inboxRoutes from "./console.ts";
import { InquiryMail } from "./mail.tsx";
import type { InquiriesSettings } from "./server-settings.ts";

declare module "fastify" {
  interface FastifyInstance {
    /** Queues an inquiry's mail inside its write's transaction. */
    inquiryMail: InquiryMail;
  }
}

export default fp(
  async function inquiries(
    app: FastifyInstance,
    { config, database }: AdminAreaOptions<InquiriesSettings & MailDefaultSettings>,
  ) {
    app.decorate(
      "inquiryMail",
      new InquiryMail(
        { acknowledge: config.INQUIRY_ACK, publicOrigin: config.PUBLIC_ORIGIN },
        (trx) => currentMailSettings(trx, config),
      ),
    );
    await app.register(inboxRoutes, { config, database });
  },
  {
    name: "inquiries",
    dependencies: ["console", "outbox", "mail-settings", "content", "webhooks"],
  },
);

export { EXPORT_COLUMNS, exportInquiries } from "./inbox.ts";
export { type NotificationAlarm, notificationAlarm } from "./notification-alarm.ts";
export { type InquiryWriter, storeInquiry } from "./writes.ts";

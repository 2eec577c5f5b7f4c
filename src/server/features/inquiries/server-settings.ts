/**
 * The inquiries' settings slice: the visitor's acknowledgement, and the
 * second route an alarm takes when an inquiry's notification failed
 * (notification-alarm.ts).
 */
import { z } from "zod";
import { address, booleanFlag, url } from "../../platform/setting-kinds.ts";

export const inquiriesSettings = z
  .object({
    INQUIRY_ACK: booleanFlag.default(false).meta({
      description: "`true` also sends the visitor an acknowledgement.",
      comment: "Whether visitors get an acknowledgement of their inquiry.",
    }),
    // The alarm goes by a route that does not share the notification's fate;
    // neither set: no alarm mail, only the log and the inbox's "not notified".
    ALERT_TO: address.optional().meta({
      description:
        "A second address every alarm also goes to (an inquiry whose notification failed), e.g. a phone's mail or a colleague outside the firm's domain.",
      comment: "A second route for alarms (an inquiry whose notification failed).",
    }),
    ALERT_SMTP_URL: url()
      .regex(/^smtps?:\/\//, "must be an smtp:// or smtps:// URL")
      .optional()
      .meta({
        description:
          'A second mail server for those alarms, so they do not depend on the route that just failed. Without it and `ALERT_TO`, no alarm is sent (the start logs a warning); the inbox still marks the inquiry "not notified".',
        shownDefault: "`SMTP_URL`",
      }),
  })
  .meta({
    title: "Inquiries",
    description:
      "The visitor's acknowledgement, and the alarm when the firm could not be told of an inquiry (ADR 035).",
  });

export type InquiriesSettings = z.output<typeof inquiriesSettings>;

/** An e-mail as the outbox stores it: everything needed to send it again, unchanged. */
export interface Address {
  name: string;
  address: string;
}

export interface MailMessage {
  /** Fixed when the message is queued, so a retried message keeps its identity. */
  messageId: string;
  from: string;
  to: string | Address;
  replyTo?: Address;
  subject: string;
  text: string;
  html: string;
  headers?: Record<string, string>;
}

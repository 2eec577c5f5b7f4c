/**
 * The events the firm's tools are told of, each as its generic JSON `data`
 * and as the sentence a chat channel shows. A sentence names the inquirer
 * or the address: the endpoints are the firm's own tools, set by an owner,
 * the same people the console already shows them to.
 */
import type { Inquiry } from "../../../shared/schemas.ts";
import type { WebhookEvent } from "./queue.ts";

/** Slack reads `&`, `<` and `>` as its own markup: a visitor's words are escaped. */
function slackText(text: string): string {
  return text.replaceAll("&", "&amp;").replaceAll("<", "&lt;").replaceAll(">", "&gt;");
}

function consoleLink(origin: string, path: string): string {
  return new URL(`/admin/${path}`, origin).toString();
}

export function inquiryReceived(
  origin: string,
  id: number,
  inquiry: Pick<
    Inquiry,
    "firstName" | "lastName" | "company" | "email" | "inquiryType" | "jobTitle" | "comments"
  >,
): WebhookEvent {
  const url = consoleLink(origin, `inquiries/${id}`);
  const who = `${inquiry.firstName} ${inquiry.lastName}`.trim();
  const company = inquiry.company ? ` (${inquiry.company})` : "";
  const about = inquiry.inquiryType ? ` about ${inquiry.inquiryType}` : "";
  return {
    type: "inquiry.received",
    data: {
      id,
      firstName: inquiry.firstName,
      lastName: inquiry.lastName,
      email: inquiry.email,
      company: inquiry.company,
      jobTitle: inquiry.jobTitle,
      inquiryType: inquiry.inquiryType,
      comments: inquiry.comments,
      url,
    },
    address: inquiry.email,
    text: `New inquiry from ${slackText(who)}${slackText(company)}${slackText(about)}: <${url}|open it in the console>`,
  };
}

export function subscriberCreated(
  origin: string,
  subscription: { id: number; email: string },
  confirmed: boolean,
): WebhookEvent {
  const url = consoleLink(origin, `subscribers/${subscription.id}`);
  const waits = confirmed ? "" : " (waiting for the address to be confirmed)";
  return {
    type: "subscriber.created",
    data: { id: subscription.id, email: subscription.email, confirmed, url },
    address: subscription.email,
    text: `New Insight subscriber: ${slackText(subscription.email)}${waits}.`,
  };
}

export function subscriberConfirmed(
  origin: string,
  subscription: { id: number; email: string },
): WebhookEvent {
  const url = consoleLink(origin, `subscribers/${subscription.id}`);
  return {
    type: "subscriber.confirmed",
    data: { id: subscription.id, email: subscription.email, url },
    address: subscription.email,
    text: `${slackText(subscription.email)} confirmed their Insight subscription.`,
  };
}

export function subscriberUnsubscribed(
  origin: string,
  subscription: { id: number; email: string },
  via: string,
): WebhookEvent {
  const url = consoleLink(origin, `subscribers/${subscription.id}`);
  return {
    type: "subscriber.unsubscribed",
    data: { id: subscription.id, email: subscription.email, via, url },
    address: subscription.email,
    text: `${slackText(subscription.email)} unsubscribed from Insight (${slackText(via)}).`,
  };
}

export interface FinishedIssue {
  id: number;
  title: string;
  slug: string;
  recipients: number;
}

export function newsletterSent(origin: string, issue: FinishedIssue): WebhookEvent {
  const url = consoleLink(origin, `newsletter/${issue.id}`);
  const copies = issue.recipients === 1 ? "1 subscriber" : `${issue.recipients} subscribers`;
  return {
    type: "newsletter.sent",
    data: { ...issue, url },
    text: `Insight "${slackText(issue.title)}" has finished sending to ${copies}.`,
  };
}

export function testEvent(origin: string, endpointName: string): WebhookEvent {
  return {
    type: "webhook.test",
    data: { endpoint: endpointName, site: origin },
    text: `Test from ${slackText(origin)}: the webhook "${slackText(endpointName)}" reaches this channel.`,
  };
}

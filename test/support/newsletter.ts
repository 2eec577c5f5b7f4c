/** Subscribers and issues for the newsletter's tests and benchmark, made straight in the database. */

import { renderIssue } from "../../src/server/features/newsletter/index.ts";
import type { DatabaseHandle } from "../../src/server/platform/db/connection.ts";
import type { IssueDraft } from "../../src/shared/admin/newsletter.ts";

/** Rows per INSERT: well under both engines' limit on bound parameters. */
const ROWS_PER_INSERT = 500;

export interface SubscriberState {
  unsubscribed?: boolean;
  confirmed?: boolean;
  /** The addresses' domain: example.com unless said. */
  domain?: string;
}

/** Adds `count` subscriptions `<prefix>-<n>@<domain>`; returns their addresses. */
export async function addSubscribers(
  database: DatabaseHandle,
  prefix: string,
  count: number,
  { unsubscribed = false, confirmed = true, domain = "example.com" }: SubscriberState = {},
): Promise<string[]> {
  const now = new Date().toISOString();
  const emails = Array.from({ length: count }, (_, n) => `${prefix}-${n}@${domain}`);
  for (let start = 0; start < count; start += ROWS_PER_INSERT) {
    await database.db
      .insertInto("subscriptions")
      .values(
        emails.slice(start, start + ROWS_PER_INSERT).map((email) => ({
          email,
          subscribed_at: now,
          subscribed_via: "import",
          confirmed_at: confirmed ? now : null,
          unsubscribed_at: unsubscribed ? now : null,
          unsubscribed_via: unsubscribed ? "import" : null,
          created_at: now,
          updated_at: now,
        })),
      )
      .execute();
  }
  return emails;
}

/** A draft whose subject (its title) names its slug, so a test finds its own copies. */
export function newsletterDraft(slug: string): IssueDraft {
  return {
    title: `Issue ${slug}`,
    slug,
    summary: `What we learned about ${slug} this month.`,
    body: `## ${slug}\n\nA paragraph with [a link](/weserve) and a list:\n\n- one\n- two\n\n> A quote.`,
  };
}

export interface ScheduledIssue {
  id: number;
  slug: string;
  subject: string;
}

/**
 * An issue due at `at` (now unless said) at `rate` copies a second, rendered
 * as "send now" would freeze it: what a server process then sends, as if
 * the console had asked.
 */
export async function scheduleIssue(
  database: DatabaseHandle,
  slug: string,
  rate: number,
  origin = "http://localhost:3000",
  at = new Date(),
): Promise<ScheduledIssue> {
  const draft = newsletterDraft(slug);
  const rendered = renderIssue(draft, { origin });
  const now = new Date().toISOString();
  const row = await database.db
    .insertInto("issues")
    .values({
      ...draft,
      status: "scheduled",
      scheduled_at: at.toISOString(),
      rate,
      email_html: rendered.emailHtml,
      email_text: rendered.emailText,
      web_html: rendered.webHtml,
      author: "test@firm.example",
      created_at: now,
      updated_at: now,
    })
    .returning("id")
    .executeTakeFirstOrThrow();
  return { id: row.id, slug, subject: draft.title };
}

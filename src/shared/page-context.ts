/**
 * What the server hands the pages' loaders and actions when it renders them
 * (React Router's load context): the content, read from the database, the
 * site's public origin for canonical addresses, and the forms' service.
 */
import type { DatedCaseStudy, ListedItem, TeamMember } from "./content.ts";
import type { ContentCategory } from "./content-categories.ts";
import type { FieldReasons } from "./field-rules.ts";
import type { SiteHighlights } from "./highlights.ts";
import type { InquiryValues } from "./inquiry.ts";
import type { InsightIssue, InsightSummary } from "./insight.ts";
import type { LeadSource } from "./lead-source.ts";
import type { PageFacts } from "./site-facts.ts";
import type { Topic } from "./subscription.ts";

/** The privacy notice as its page shows it: HTML rendered from the firm's Markdown. */
export interface PrivacyNotice {
  html: string;
  /** When the site facts, the notice among them, were last saved (ISO 8601). */
  updatedAt: string;
  /** Where questions about personal data go: the contact address. */
  contactEmail: string;
}

export interface ContentReader {
  team(): Promise<TeamMember[]>;
  items(category: ContentCategory): Promise<ListedItem[]>;
  caseStudies(): Promise<DatedCaseStudy[]>;
  /** The Insight archive: every published issue, newest first (summaries only). */
  insightIssues(): Promise<InsightSummary[]>;
  /** A published issue with its body; null for any other slug (a draft's too). */
  insightIssue(slug: string): Promise<InsightIssue | null>;
  /** What Home and the menu put forward (shared/highlights.ts); the root loader hands it to every page. */
  highlights(): Promise<SiteHighlights>;
  /** The facts the firm edits in the console; the root loader hands them to every page. */
  facts(): Promise<PageFacts>;
  /** The privacy notice, for its own page only (it is too long to travel with every page). */
  /** The topics the subscribe page offers, in the firm's order; none when it offers none. */
  topics(): Promise<Topic[]>;
  privacyNotice(): Promise<PrivacyNotice>;
}

/**
 * The hidden field of both forms: the token that proves a form post came
 * from a page this server rendered (ADR 004). Without JavaScript the browser
 * posts the form to the page itself; with JavaScript the form calls the API
 * and the field is not used.
 */
export const FORM_TOKEN_FIELD = "_xsrf";

/**
 * The hidden field of a form on a page answering a post without JavaScript
 * (never on a cached page): the lead source the server took for that post
 * (JSON), so a second post from the answer page keeps it (ADR 052).
 */
export const FORM_SOURCE_FIELD = "_source";

/** What a write through a form answers: done, or the refused fields. */
export type FormWrite<Done extends string> =
  | { outcome: Done }
  | { outcome: "invalid"; fields: FieldReasons };

/**
 * The writes behind the forms when the browser posts them without JavaScript
 * (the routes' actions). The server implements them with the API's own code,
 * so a form post and an API call store the same row and queue the same mail.
 */
export interface FormService {
  /** The value of every form's FORM_TOKEN_FIELD: the same for every visitor (pages are cached). */
  token: string;
  /**
   * Why the server refuses this post (a cross-site or stale form, a missing
   * cookie, too many posts), in words for the visitor; null when it may write.
   * The writes below refuse too when it is set.
   */
  refusal: string | null;
  /** The lead source this post brought (ADR 052), for the answer page's FORM_SOURCE_FIELD. */
  source?: LeadSource | undefined;
  sendInquiry(values: InquiryValues): Promise<FormWrite<"sent">>;
  /**
   * "subscribed" says whether the address is to be confirmed by its e-mail's
   * link first; "already" carries the server's message, which the page shows
   * (the 409 answer).
   */
  /** `topics` as the form sent them: ids parted by commas ("" for none). */
  subscribe(
    email: string,
    topics?: string,
  ): Promise<
    | { outcome: "subscribed"; confirmationAsked: boolean }
    | { outcome: "invalid"; fields: FieldReasons }
    | { outcome: "already"; message: string }
  >;
}

/**
 * The CAPTCHA widget the forms show when CAPTCHA_PROVIDER is set (ADR 017):
 * the element the provider's script fills (widgetClass, with data-sitekey)
 * and the form field it fills with its answer.
 */
export interface CaptchaWidget {
  scriptUrl: string;
  widgetClass: string;
  responseField: string;
  siteKey: string;
}

// A type, not an interface: React Router's AppLoadContext has an index
// signature, which only a type alias satisfies implicitly.
export type PageContext = {
  content: ContentReader;
  /** The site's public origin, e.g. "https://www.example.com" (PUBLIC_ORIGIN). */
  origin: string;
  /** Absent where no server renders the pages (`npm run dev`, tests of the build's size). */
  forms?: FormService;
  /** The CAPTCHA widget of the forms; absent or null when it is off (the default). */
  captcha?: CaptchaWidget | null;
};

declare module "react-router" {
  interface AppLoadContext extends PageContext {}
}

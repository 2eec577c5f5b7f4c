/**
 * The site's client for the public API, on the fetch core the console shares
 * (fetch-core.ts). Requests have no time-out; a network failure rejects, any
 * HTTP answer resolves, and each caller decides what a status means: success
 * is 2xx, and each form maps the rest to its own failure text.
 */
import type { z } from "zod";
import { API_PATHS } from "../../shared/api-paths.ts";
import { CAPTCHA_HEADER, FORM_TRAP_HEADER } from "../../shared/bot-defence.ts";
import type { CaseStudy, ContentItem, TeamMember } from "../../shared/content.ts";
import type { ContentCategory } from "../../shared/content-categories.ts";
import type { FieldReasons } from "../../shared/field-rules.ts";
import type {
  Inquiry,
  inquiryReceivedSchema,
  messageSchema,
  subscribedSchema,
  unsubscribeStateSchema,
} from "../../shared/schemas.ts";
import { leadSource } from "../lib/lead-source.ts";
import type { FetchAnswer, FetchCall } from "./fetch-core.ts";
import * as fetchCore from "./fetch-core.ts";

export interface ApiResponse<T> extends FetchAnswer {
  data: T | undefined;
}

/** The configured backend host; by default the site's own origin. */
const BASE = (import.meta.env.VITE_API_BASE_URL as string | undefined) || "/";

function request<T>(path: string, call?: FetchCall): Promise<ApiResponse<T>> {
  return fetchCore.request(BASE, path, call) as Promise<ApiResponse<T>>;
}

/**
 * The forms ask for the token as soon as they are shown (FormDefences): the
 * token carries its issue time, and one taken only at the moment of sending
 * would make a person's post look as fast as a script's (ADR 017).
 */
export function xsrfToken(): Promise<string> {
  return fetchCore.xsrfToken(BASE);
}

/**
 * What a form sends against scripts beside its fields (ADR 017), in
 * headers: the honeypot's value and the CAPTCHA widget's answer. Each is
 * left out while empty, as it is for a person without a CAPTCHA.
 */
export interface FormDefence {
  trap: string;
  captcha: string;
}

function post<T>(path: string, body?: unknown, defence?: FormDefence): Promise<ApiResponse<T>> {
  const headers: Record<string, string> = {};
  if (defence?.trap) headers[FORM_TRAP_HEADER] = defence.trap;
  if (defence?.captcha) headers[CAPTCHA_HEADER] = defence.captcha;
  return request<T>(path, { method: "POST", body, headers });
}

/**
 * An answer's body is one of the shapes its route declares (src/shared/schemas.ts):
 * success, or `{message}` on failure; each caller checks the status first.
 */
export type MessageBody = Partial<z.infer<typeof messageSchema>> & {
  /** A 400 answer: one reason per refused field (src/server/platform/security/errors.ts). */
  fields?: unknown;
};

/**
 * The reasons per field of a refusal (`{message, fields}`: a 400, or a CAPTCHA
 * answer refused with 403 or unchecked with 503), as the server words them
 * (shared/field-rules.ts); only string reasons are kept, and nothing for a success.
 */
export function fieldReasonsOf(response: ApiResponse<MessageBody>): FieldReasons {
  const fields = response.ok ? undefined : response.data?.fields;
  if (typeof fields !== "object" || fields === null) return {};
  return Object.fromEntries(
    Object.entries(fields).filter(
      (entry): entry is [string, string] => typeof entry[1] === "string",
    ),
  );
}

/** The address in the query, as the call has always taken it, and the visit's source, when kept, as the body. */
/** `topics`: the ids of the topics ticked, parted by commas; left out when none is. */
export function subscribe(emailId: string, defence?: FormDefence, topics = "") {
  const source = leadSource();
  const query = new URLSearchParams({ emailId, ...(topics ? { topics } : {}) });
  return post<MessageBody & Partial<z.infer<typeof subscribedSchema>>>(
    `${API_PATHS.subscribe}?${query}`,
    source && { source },
    defence,
  );
}

export function sendComment(inquiry: Inquiry, defence?: FormDefence) {
  return post<z.infer<typeof inquiryReceivedSchema> & MessageBody>(
    API_PATHS.sendComment,
    { ...inquiry, source: leadSource() },
    defence,
  );
}

export function fetchTeam() {
  return request<TeamMember[]>(API_PATHS.teams);
}

export function fetchItems(category: ContentCategory) {
  return request<ContentItem[]>(`${API_PATHS.items}?${new URLSearchParams({ category })}`);
}

export function fetchCaseStudies() {
  return request<CaseStudy[]>(API_PATHS.caseStudies);
}

export type UnsubscribeState = Partial<z.infer<typeof unsubscribeStateSchema>> & MessageBody;

export function checkUnsubscribe(token: string) {
  return request<UnsubscribeState>(`${API_PATHS.unsubscribe}?${new URLSearchParams({ token })}`);
}

export function confirmUnsubscribe(token: string) {
  return post<UnsubscribeState>(API_PATHS.unsubscribe, { token });
}

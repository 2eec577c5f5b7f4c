/**
 * The site facts in the console, versioned like every record: one form with the five
 * facts, saved as one versioned record, and every payload of its API. The
 * console's form, its API client and the server's routes use these
 * definitions; the facts' own rules are in shared/site-facts.ts.
 */
import { z } from "zod";
import { ROUTES } from "../routes.ts";
import { SITE_FACT_MAX, type SiteFactKey, siteFactsSchema } from "../site-facts.ts";
import { CONTENT_API, type FieldSpec } from "./content.ts";
import { loadedVersionSchema } from "./record-version.ts";
import type { RouteSlice } from "./route-entry.ts";

const SITE_FACTS_API = `${CONTENT_API}/site-facts`;

export const SITE_FACTS_PATHS = {
  facts: SITE_FACTS_API,
  versions: `${SITE_FACTS_API}/versions`,
  restore: (version: number | ":version") => `${SITE_FACTS_API}/versions/${version}/restore`,
};

/** What content_versions names the facts by: the five of them are one record. */
export const SITE_FACTS_ENTITY = "site-facts";
export const SITE_FACTS_KEY = "site";

/** The console's label of the section, and the public page its preview opens. */
export const SITE_FACTS_LABEL = "Site facts";
export const SITE_FACTS_PREVIEW = ROUTES.home;

/** The form's fields, in its order, with where the site shows each. */
export const SITE_FACT_FIELDS: (FieldSpec & { name: SiteFactKey; type?: "email" | "url" })[] = [
  {
    name: "mission",
    label: "Mission",
    hint: `Under the video on Home and in the footer of every page; search results show its first 160 characters under Home's title. Up to ${SITE_FACT_MAX.mission} characters.`,
    rows: 4,
  },
  {
    name: "newsletterInvitation",
    label: "Newsletter invitation",
    hint: `Above the subscribe form in the footer of every page and on the Subscribe page. Up to ${SITE_FACT_MAX.newsletterInvitation} characters.`,
    rows: 4,
  },
  {
    name: "contactInvitation",
    label: "Contact invitation",
    hint: `At the top of Contact Us. Up to ${SITE_FACT_MAX.contactInvitation} characters.`,
    rows: 4,
  },
  {
    name: "contactEmail",
    label: "Contact e-mail address",
    type: "email",
    hint: "Shown on Contact Us and to search engines. Where inquiries are sent is set under Mail settings (owners), not here.",
  },
  {
    name: "networkUrl",
    label: "LinkedIn address",
    type: "url",
    hint: "Where the LinkedIn link in the footer of every page leads. It starts with https://.",
  },
  {
    name: "privacyNotice",
    label: "Privacy notice",
    hint: `The page at /privacy, linked from the footer of every page and under both forms; the contact address above is added at its end. Markdown: ## starts a heading, a blank line starts a paragraph, - starts a list item. Up to ${SITE_FACT_MAX.privacyNotice.toLocaleString("en-US")} characters.`,
    rows: 18,
  },
];

// ---- Payloads and answers ----

/** The facts as the console shows them, with their version. */
export const siteFactsAnswerSchema = z.object({
  version: z.number().int(),
  updatedAt: z.string(),
  fields: z.record(z.string(), z.string()),
});
export type SiteFactsAnswer = z.infer<typeof siteFactsAnswerSchema>;

/** Saving the facts: all five, and the version the editor loaded (a stale one is refused). */
export const siteFactsSaveSchema = z.strictObject({
  fields: siteFactsSchema,
  version: loadedVersionSchema,
});

export const siteFactsRestoreSchema = z.strictObject({ version: loadedVersionSchema });

export const siteFactsVersionSchema = z.object({
  version: z.number().int(),
  author: z.string(),
  createdAt: z.string(),
  fields: z.record(z.string(), z.string()),
});
export type SiteFactsVersion = z.infer<typeof siteFactsVersionSchema>;

export const siteFactsVersionsSchema = z.object({ versions: z.array(siteFactsVersionSchema) });

// ---- Texts ----

export const SITE_FACTS_TEXTS = {
  stale:
    "Someone else saved the site facts since you opened them. Reload to see their changes; your text is still in the form.",
  /** A restore, where nothing typed is at stake. */
  staleAction:
    "Someone else saved the site facts since you opened them. Reload to see them as they are now, then try again.",
} as const;

/**
 * This area's entries of the console's route map (console-routes.ts):
 * The site facts read, saved and restored from a version.
 */
export const SITE_FACTS_CONSOLE_ROUTES = {
  "siteFacts.read": {
    method: "GET",
    path: SITE_FACTS_PATHS.facts,
    status: 200,
    response: siteFactsAnswerSchema,
  },
  "siteFacts.save": {
    method: "PUT",
    path: SITE_FACTS_PATHS.facts,
    body: siteFactsSaveSchema,
    status: 200,
    response: siteFactsAnswerSchema,
  },
  "siteFacts.versions": {
    method: "GET",
    path: SITE_FACTS_PATHS.versions,
    status: 200,
    response: siteFactsVersionsSchema,
  },
  "siteFacts.restore": {
    method: "POST",
    path: ({ version }: { version: number }) => SITE_FACTS_PATHS.restore(version),
    body: siteFactsRestoreSchema,
    status: 200,
    response: siteFactsAnswerSchema,
  },
} as const satisfies RouteSlice;

/**
 * The site facts the firm edits in the console, versioned like every record: its
 * mission, the two invitations, the contact address, the network link and the
 * privacy notice. They live in the database (site_facts), seeded from
 * content/site.json and content/privacy.md, and reach the pages through the
 * root loader, all but the privacy notice, which only its own page reads. The firm's names and its method
 * stay build constants (shared/site.ts).
 *
 * The pages import only the SiteFacts type from here, so the public bundle
 * carries no Zod.
 */
import { z } from "zod";
import { ruledText } from "./schemas.ts";

export const SITE_FACT_KEYS = [
  "mission",
  "newsletterInvitation",
  "contactInvitation",
  "contactEmail",
  "networkUrl",
  "privacyNotice",
] as const;
export type SiteFactKey = (typeof SITE_FACT_KEYS)[number];

/** The longest each text may be, in characters (the console's form says so). */
export const SITE_FACT_MAX = {
  mission: 300,
  newsletterInvitation: 400,
  contactInvitation: 400,
  privacyNotice: 20_000,
} as const;

/**
 * One paragraph of the page, typed in a text area: line breaks and runs of
 * spaces become one space.
 */
const paragraph = (what: string, max: number) =>
  ruledText("multiline", `Enter ${what}.`)
    .transform((value) => value.replace(/\s+/g, " ").trim())
    .pipe(z.string().min(1, `Enter ${what}.`).max(max, `Keep it to ${max} characters.`));

const contactEmail = ruledText("text", "Enter an e-mail address.")
  .trim()
  .pipe(z.email("Enter an e-mail address, e.g. hello@firm.example.").max(254));

const networkUrl = ruledText("text", "Enter the address of the firm's page.")
  .trim()
  .pipe(
    z
      .url({
        protocol: /^https$/,
        hostname: z.regexes.domain,
        error:
          "Enter an address that starts with https://, e.g. https://www.linkedin.com/company/…",
      })
      .max(500, "Keep it to 500 characters."),
  );

/**
 * A page of Markdown typed in a text area: its line breaks are its structure,
 * so they are kept (only Windows' CR LF becomes LF, and the ends are trimmed).
 */
const markdownPage = (what: string, max: number) =>
  ruledText("multiline", `Enter ${what}.`)
    .transform((value) => value.replace(/\r\n?/g, "\n").trim())
    .pipe(z.string().min(1, `Enter ${what}.`).max(max, `Keep it to ${max} characters.`));

/** The facts, each checked as the console's form, its API and the seed check them. */
export const siteFactsSchema = z.strictObject({
  mission: paragraph("the mission", SITE_FACT_MAX.mission),
  newsletterInvitation: paragraph("the newsletter invitation", SITE_FACT_MAX.newsletterInvitation),
  contactInvitation: paragraph("the contact invitation", SITE_FACT_MAX.contactInvitation),
  contactEmail,
  networkUrl,
  privacyNotice: markdownPage("the privacy notice", SITE_FACT_MAX.privacyNotice),
} satisfies Record<SiteFactKey, z.ZodType>);

export type SiteFacts = z.infer<typeof siteFactsSchema>;

/** The facts every page shows, which the root loader hands to every page. */
export type PageFacts = Omit<SiteFacts, "privacyNotice">;

/** The facts every page shows, without the privacy notice. */
export function pageFacts(facts: SiteFacts): PageFacts {
  const { mission, newsletterInvitation, contactInvitation, contactEmail, networkUrl } = facts;
  return { mission, newsletterInvitation, contactInvitation, contactEmail, networkUrl };
}

/**
 * The path of a counted link of an Insight e-mail (INSIGHT_LINK_ROUTE), as
 * the server reads it: a slug an issue can have and the link's number. Any
 * other path names no link, and the site's 404 page answers it.
 */
import { z } from "zod";
import { ISSUE_LIMITS, SLUG_PATTERN } from "./admin/newsletter.ts";

/** More links than an issue's body can hold (ISSUE_LIMITS.body): a larger number names none. */
const POSITION_DIGITS = /^[1-9][0-9]{0,5}$/;

export const insightLinkParamsSchema = z
  .object({ slug: z.string(), position: z.string() })
  .transform(({ slug, position }) =>
    slug.length <= ISSUE_LIMITS.slug && SLUG_PATTERN.test(slug) && POSITION_DIGITS.test(position)
      ? { slug, position: Number(position) }
      : null,
  );

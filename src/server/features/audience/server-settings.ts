/**
 * The audience's settings slice: whether the site's audience is counted on
 * the server (ADR 051), how counts reach the database and how long they are
 * kept, what one client address may add (ADR 058), and the weekly digest.
 */
import { z } from "zod";
import { booleanFlag } from "../../platform/setting-kinds.ts";

export const audienceSettings = z
  .object({
    // "off" is also the benchmark's baseline.
    AUDIENCE_COUNTING: z.enum(["on", "off"]).default("on").meta({
      description:
        "`off` counts no audience at all ([Audience figures](audience.md#audience-figures), ADR 051).",
      comment:
        'Counting the audience on the server, with no cookie (ADR 051): "off" counts nothing. Counts are written every AUDIENCE_FLUSH_SECONDS (a crash loses at most that much); the daily figures are kept AUDIENCE_RETENTION_MONTHS.',
    }),
    AUDIENCE_FLUSH_SECONDS: z.coerce.number().int().min(1).max(300).default(10).meta({
      description:
        "How often each instance adds the page views it counted to the database (1 to 300). A crash loses at most this much counting; a graceful stop writes everything.",
    }),
    // So that a year can be set beside the one before it.
    AUDIENCE_RETENTION_MONTHS: z.coerce.number().int().min(1).max(120).default(25).meta({
      description:
        "How long the daily audience figures are kept (1 to 120), in the daily purge. The privacy notice says how long: change it there too.",
    }),
    AUDIENCE_VIEWS_PER_MINUTE: z.coerce.number().int().min(1).max(10_000).default(20).meta({
      description:
        "Page views counted per client address and minute (an IPv6 address by its /64); more are not counted. Shared by every instance with `REDIS_URL`; without it, each process counts alone (ADR 058).",
      comment:
        "What one client address can add to the figures: page views counted a minute, and new visitors a day (further browsers there count as one shared visitor). Shared by every instance through REDIS_URL; without it, per process.",
    }),
    AUDIENCE_VISITORS_PER_ADDRESS: z.coerce.number().int().min(1).max(10_000).default(20).meta({
      description:
        "New visitors one client address can bring in a UTC day; further browsers there count page views but no visit or visitor. Raise it for a large office or a carrier's shared address. Shared through `REDIS_URL` as above.",
    }),
    AUDIENCE_VALUES_PER_DAY: z.coerce.number().int().min(1).max(100_000).default(2000).meta({
      description:
        'The most values each audience dimension (referrers, UTM tags, browsers…) keeps in a UTC day, for every instance together; further values are counted as "(other)", and the Audience area says on which days. A change holds from the next day.',
      comment:
        'The most values a dimension (referrers, UTM tags, browsers…) counts in a day, for every instance together; the rest are counted as "(other)".',
    }),
    AUDIENCE_DIGEST: booleanFlag.default(false).meta({
      description:
        "`true` mails every owner a weekly digest of the Audience area on Mondays from 07:00 UTC: last week beside the week before (visitors, page views, visits, inquiries, subscriptions, the top pages, channels and referrers). One instance sends each week, however many run ([The Audience area](audience.md#the-audience-area)).",
      comment:
        'The Audience area\'s weekly digest to every owner, on Mondays (docs/operations/audience.md, "The Audience area").',
    }),
  })
  .meta({
    title: "Audience",
    description:
      "Counting the site's audience on the server, with no cookie, and the weekly digest of its figures.",
  });

export type AudienceSettings = z.output<typeof audienceSettings>;

/**
 * The route map: every call the console app makes to the server, by a key
 * that stays when a path moves. Each area declares its own entries beside its
 * paths and schemas (its module's `*_CONSOLE_ROUTES`, typed by route-entry.ts)
 * and this file only combines them. An entry names the method, the path, the
 * status of a success, and the schemas of its answer, query and body, taken
 * from where the server's route takes them (test/platform/console/console-routes.test.ts
 * holds the two together). The console's client (src/admin/api/client.ts)
 * takes its types from here, so no screen says by hand what an answer holds.
 */

import { ACCOUNT_CONSOLE_ROUTES } from "./account.ts";
import { AUDIENCE_CONSOLE_ROUTES } from "./audience.ts";
import { AUDIT_CONSOLE_ROUTES } from "./audit-log.ts";
import { AUTH_CONSOLE_ROUTES } from "./auth.ts";
import { BACKUP_CONSOLE_ROUTES } from "./backups.ts";
import { CONTENT_CONSOLE_ROUTES } from "./content.ts";
import { DRAFT_CONSOLE_ROUTES } from "./content-drafts.ts";
import { DEFENCE_CONSOLE_ROUTES } from "./defences.ts";
import { INQUIRY_CONSOLE_ROUTES } from "./inquiries.ts";
import { MAIL_SETTINGS_CONSOLE_ROUTES } from "./mail-settings.ts";
import { NEWSLETTER_CONSOLE_ROUTES } from "./newsletter.ts";
import { ARCHIVE_CONSOLE_ROUTES } from "./newsletter-archive.ts";
import { PEOPLE_CONSOLE_ROUTES } from "./people.ts";
import type { RouteSlice } from "./route-entry.ts";
import { SENDING_HEALTH_CONSOLE_ROUTES } from "./sending-health.ts";
import { SITE_FACTS_CONSOLE_ROUTES } from "./site-facts.ts";
import { IMPORT_CONSOLE_ROUTES } from "./subscriber-import.ts";
import { SUBSCRIBER_CONSOLE_ROUTES } from "./subscribers.ts";
import { SUPPRESSION_CONSOLE_ROUTES } from "./suppressions.ts";
import { TURNED_AWAY_CONSOLE_ROUTES } from "./turned-away.ts";
import { VERSION_CONSOLE_ROUTES } from "./version.ts";
import { WEBHOOK_CONSOLE_ROUTES } from "./webhooks.ts";

export const CONSOLE_ROUTES = {
  ...AUTH_CONSOLE_ROUTES,
  ...VERSION_CONSOLE_ROUTES,
  ...ACCOUNT_CONSOLE_ROUTES,
  ...PEOPLE_CONSOLE_ROUTES,
  ...AUDIT_CONSOLE_ROUTES,
  ...INQUIRY_CONSOLE_ROUTES,
  ...DEFENCE_CONSOLE_ROUTES,
  ...TURNED_AWAY_CONSOLE_ROUTES,
  ...SUBSCRIBER_CONSOLE_ROUTES,
  ...IMPORT_CONSOLE_ROUTES,
  ...SUPPRESSION_CONSOLE_ROUTES,
  ...MAIL_SETTINGS_CONSOLE_ROUTES,
  ...AUDIENCE_CONSOLE_ROUTES,
  ...BACKUP_CONSOLE_ROUTES,
  ...SENDING_HEALTH_CONSOLE_ROUTES,
  ...NEWSLETTER_CONSOLE_ROUTES,
  ...ARCHIVE_CONSOLE_ROUTES,
  ...CONTENT_CONSOLE_ROUTES,
  ...DRAFT_CONSOLE_ROUTES,
  ...SITE_FACTS_CONSOLE_ROUTES,
  ...WEBHOOK_CONSOLE_ROUTES,
} as const satisfies RouteSlice;

export type ConsoleRoutes = typeof CONSOLE_ROUTES;
export type RouteKey = keyof ConsoleRoutes;

/**
 * Every migration, oldest first, under the name the database records it by.
 * A name is history: a database that ran a migration keeps its name and
 * never runs it again, so a name never changes and a shipped migration is
 * never edited. Each file is named after its migration, `_` written `-`.
 */
import * as initial from "./001-initial.ts";
import * as outbox from "./002-outbox.ts";
import * as caseStudies from "./003-case-studies.ts";
import * as consoleTables from "./004-console.ts";
import * as outboxPriority from "./005-outbox-priority.ts";
import * as botTrips from "./006-bot-trips.ts";
import * as newsletter from "./007-newsletter.ts";
import * as signInKeys from "./008-sign-in-keys.ts";
import * as totpLastStep from "./009-totp-last-step.ts";
import * as caseStudyOutcomes from "./010-case-study-outcomes.ts";
import * as issueNames from "./011-issue-names.ts";
import * as deliveryReports from "./012-delivery-reports.ts";
import * as sendGuard from "./014-send-guard.ts";
import * as mailCooldowns from "./015-mail-cooldowns.ts";
import * as inquiryNotifications from "./016-inquiry-notifications.ts";
import * as turnedAway from "./017-turned-away.ts";
import * as domainPacing from "./018-domain-pacing.ts";
import * as notificationFailureSeen from "./019-notification-failure-seen.ts";
import * as foldText from "./020-fold-text.ts";
import * as archiveCorrections from "./021-archive-corrections.ts";
import * as mailSettings from "./022-mail-settings.ts";
import * as contentDrafts from "./023-content-drafts.ts";
import * as menuLines from "./024-menu-lines.ts";
import * as backups from "./025-backups.ts";
import * as outboxBodyRemoved from "./026-outbox-body-removed.ts";
import * as audience from "./027-audience.ts";
import * as leadSources from "./028-lead-sources.ts";
import * as subscriberImports from "./029-subscriber-imports.ts";
import * as webhooks from "./030-webhooks.ts";
import * as audienceFigures from "./031-audience-figures.ts";
import * as reportProof from "./032-report-proof.ts";
import * as audienceValueCaps from "./033-audience-value-caps.ts";
import * as webhookDeliveriesByEndpoint from "./034-webhook-deliveries-by-endpoint.ts";
import * as subscriptionOptInDates from "./035-subscription-opt-in-dates.ts";
import * as audienceConversions from "./036-audience-conversions.ts";
import * as audienceHours from "./037-audience-hours.ts";
import * as issueLinks from "./038-issue-links.ts";
import * as subscriberNamesTags from "./039-subscriber-names-tags.ts";
import * as issueSegments from "./040-issue-segments.ts";
import * as audienceGoals from "./041-audience-goals.ts";
import * as topics from "./042-topics.ts";
import type { EngineMigration } from "./shared.ts";

export const MIGRATIONS: Readonly<Record<string, EngineMigration>> = {
  "001_initial": initial,
  "002_outbox": outbox,
  "003_case_studies": caseStudies,
  "004_console": consoleTables,
  "005_outbox_priority": outboxPriority,
  "006_bot_trips": botTrips,
  "007_newsletter": newsletter,
  "008_sign_in_keys": signInKeys,
  "009_totp_last_step": totpLastStep,
  "010_case_study_outcomes": caseStudyOutcomes,
  "011_issue_names": issueNames,
  "012_delivery_reports": deliveryReports,
  "014_send_guard": sendGuard,
  "015_mail_cooldowns": mailCooldowns,
  "016_inquiry_notifications": inquiryNotifications,
  "017_turned_away": turnedAway,
  "018_domain_pacing": domainPacing,
  "019_notification_failure_seen": notificationFailureSeen,
  "020_fold_text": foldText,
  "021_archive_corrections": archiveCorrections,
  "022_mail_settings": mailSettings,
  "023_content_drafts": contentDrafts,
  "024_menu_lines": menuLines,
  "025_backups": backups,
  "026_outbox_body_removed": outboxBodyRemoved,
  "027_audience": audience,
  "028_lead_sources": leadSources,
  "029_subscriber_imports": subscriberImports,
  "030_webhooks": webhooks,
  "031_audience_figures": audienceFigures,
  "032_report_proof": reportProof,
  "033_audience_value_caps": audienceValueCaps,
  "034_webhook_deliveries_by_endpoint": webhookDeliveriesByEndpoint,
  "035_subscription_opt_in_dates": subscriptionOptInDates,
  "036_audience_conversions": audienceConversions,
  "037_audience_hours": audienceHours,
  "038_issue_links": issueLinks,
  "039_subscriber_names_tags": subscriberNamesTags,
  "040_issue_segments": issueSegments,
  "041_audience_goals": audienceGoals,
  "042_topics": topics,
};

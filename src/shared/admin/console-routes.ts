/**
 * The route map: every call the console app makes to the server, by a key
 * that stays when a path moves. Each entry names the method, the path (from
 * the area's own path constants), the status of a success, and the schemas
 * of its answer, query and body, taken from where the server's route takes
 * them (test/admin/console-routes.test.ts holds the two together). The
 * console's client (src/admin/api/client.ts) takes its types from here, so
 * no screen says by hand what an answer holds.
 */
import type { z } from "zod";
import { messageSchema } from "../schemas.ts";
import {
  ACCOUNT_PATHS,
  accountSchema,
  changePasswordSchema,
  secondFactorOffDoneSchema,
  secondFactorOffSchema,
  totpConfirmedSchema,
  totpConfirmSchema,
  totpSetupSchema,
} from "./account.ts";
import {
  AUDIENCE_PATHS,
  breakdownQuerySchema,
  breakdownSchema,
  overviewSchema,
  rangeQuerySchema,
} from "./audience.ts";
import { AUDIT_PATH, auditPageSchema, auditQuerySchema } from "./audit-log.ts";
import {
  AUTH_PATHS,
  meSchema,
  passwordResetSchema,
  sessionStateSchema,
  setPasswordSchema,
  signInSchema,
} from "./auth.ts";
import { BACKUPS_PATH, backupStartedSchema, backupsAnswerSchema } from "./backups.ts";
import {
  CONTENT_PATHS,
  type ContentList,
  createSchemaOf,
  entrySchema,
  listAnswerSchema,
  MEDIA_API,
  reorderSchema,
  restoreSchema,
  saveSchemaOf,
  uploadAnswerSchema,
  uploadQuerySchema,
  versionsAnswerSchema,
  visibilitySchema,
} from "./content.ts";
import {
  DRAFT_PATHS,
  draftAnswerSchema,
  draftSaveSchemaOf,
  draftSchema,
  previewLinkSchema,
  scheduleSchema,
} from "./content-drafts.ts";
import { DEFENCE_PATHS, defenceTripsSchema } from "./defences.ts";
import { confirmAddressSchema } from "./erasure.ts";
import {
  assigneesSchema,
  assignmentSchema,
  INQUIRY_PATHS,
  inboxCountsSchema,
  inquirerErasureSchema,
  inquiryDetailSchema,
  inquiryListQuerySchema,
  inquiryPageSchema,
  inquiryPath,
  noteSchema,
  statusChangeSchema,
  unnotifiedSchema,
} from "./inquiries.ts";
import {
  MAIL_SETTINGS_PATHS,
  mailSettingsAnswerSchema,
  mailSettingsSaveSchema,
  testMailSchema,
} from "./mail-settings.ts";
import {
  issueDetailSchema,
  issueDraftSchema,
  issueListSchema,
  issueSendSchema,
  issueUpdateSchema,
  NEWSLETTER_PATHS,
  testSendSchema,
} from "./newsletter.ts";
import {
  ARCHIVE_PATHS,
  archiveCorrectionSchema,
  archiveRestoreSchema,
  archiveVersionsSchema,
} from "./newsletter-archive.ts";
import {
  invitationPath,
  inviteSchema,
  PEOPLE_PATHS,
  peopleListSchema,
  personPath,
  personSchema,
  roleChangeSchema,
  secondFactorSettingSchema,
} from "./people.ts";
import {
  SENDING_HEALTH_PATH,
  SET_ASIDE_PATH,
  sendingHealthSchema,
  setAsideListSchema,
  setAsideQuerySchema,
} from "./sending-health.ts";
import {
  SITE_FACTS_PATHS,
  siteFactsAnswerSchema,
  siteFactsRestoreSchema,
  siteFactsSaveSchema,
  siteFactsVersionsSchema,
} from "./site-facts.ts";
import {
  IMPORT_ROUTES,
  importMappingSchema,
  importPreviewSchema,
  importReportSchema,
  importResultSchema,
  importRunQuerySchema,
} from "./subscriber-import.ts";
import {
  SUBSCRIBER_ROUTES,
  subscriberDetailSchema,
  subscriberListQuerySchema,
  subscriberListSchema,
  subscriberPath,
  subscriberStatsSchema,
} from "./subscribers.ts";
import {
  SUPPRESSION_ROUTES,
  suppressionListQuerySchema,
  suppressionListSchema,
  suppressionPath,
} from "./suppressions.ts";
import {
  releasedSchema,
  TURNED_AWAY_ROUTES,
  turnedAwayListQuerySchema,
  turnedAwayListSchema,
  turnedAwayPath,
} from "./turned-away.ts";
import { VERSION_PATH, versionSchema } from "./version.ts";
import {
  deliveryListSchema,
  testQueuedSchema,
  WEBHOOK_ROUTES,
  webhookListSchema,
  webhookPath,
  webhookSaveSchema,
  webhookSchema,
  webhookSecretSchema,
  webhookWithSecretSchema,
} from "./webhooks.ts";

export type Method = "GET" | "POST" | "PUT" | "PATCH" | "DELETE";

/**
 * A body the server reads as multipart form data (a picture's file), with no
 * schema: the client sends the FormData it is given as it is.
 */
export const MULTIPART = "multipart";

interface EntryBase {
  method: Method;
  /** The path, or how a call's parameters make it (a record's id, a content list). */
  path: string | ((params: never) => string);
  query?: z.ZodType;
  /** The body's schema, or how a content list's spec makes it, or MULTIPART. */
  body?: z.ZodType | ((...args: never) => z.ZodType) | typeof MULTIPART;
}

/** One entry of the map: a success answers `response`, or nothing at all (204). */
export type RouteEntry = EntryBase &
  ({ status: 200 | 201 | 202; response: z.ZodType } | { status: 204; response?: never });

interface RecordId {
  id: number;
}
interface ListRecord extends RecordId {
  list: ContentList;
}

export const CONSOLE_ROUTES = {
  // ---- Signing in and out; a password set through an e-mailed link ----
  "session.read": {
    method: "GET",
    path: AUTH_PATHS.session,
    status: 200,
    response: sessionStateSchema,
  },
  "session.signIn": {
    method: "POST",
    path: AUTH_PATHS.session,
    body: signInSchema,
    status: 200,
    response: meSchema,
  },
  "session.signOut": { method: "DELETE", path: AUTH_PATHS.session, status: 204 },
  "session.signOutEverywhere": { method: "DELETE", path: AUTH_PATHS.sessions, status: 204 },
  // The release the server runs, for the footer.
  "version.read": { method: "GET", path: VERSION_PATH, status: 200, response: versionSchema },
  "password.requestReset": {
    method: "POST",
    path: AUTH_PATHS.passwordReset,
    body: passwordResetSchema,
    status: 202,
    response: messageSchema,
  },
  "password.set": {
    method: "POST",
    path: AUTH_PATHS.password,
    body: setPasswordSchema,
    status: 200,
    response: messageSchema,
  },

  // ---- One's own account ----
  "account.read": {
    method: "GET",
    path: ACCOUNT_PATHS.account,
    status: 200,
    response: accountSchema,
  },
  "account.changePassword": {
    method: "PUT",
    path: ACCOUNT_PATHS.password,
    body: changePasswordSchema,
    status: 200,
    response: messageSchema,
  },
  "account.startSecondFactor": {
    method: "POST",
    path: ACCOUNT_PATHS.secondFactor,
    status: 200,
    response: totpSetupSchema,
  },
  "account.confirmSecondFactor": {
    method: "POST",
    path: ACCOUNT_PATHS.secondFactorConfirm,
    body: totpConfirmSchema,
    status: 200,
    response: totpConfirmedSchema,
  },
  "account.turnOffSecondFactor": {
    method: "DELETE",
    path: ACCOUNT_PATHS.secondFactor,
    body: secondFactorOffSchema,
    status: 200,
    response: secondFactorOffDoneSchema,
  },

  // ---- People, the owner's setting, the audit log ----
  "people.list": {
    method: "GET",
    path: PEOPLE_PATHS.people,
    status: 200,
    response: peopleListSchema,
  },
  "people.invite": {
    method: "POST",
    path: PEOPLE_PATHS.people,
    body: inviteSchema,
    status: 201,
    response: personSchema,
  },
  "people.resendInvitation": {
    method: "POST",
    path: ({ id }: RecordId) => invitationPath(id),
    status: 202,
    response: messageSchema,
  },
  "people.changeRole": {
    method: "PATCH",
    path: ({ id }: RecordId) => personPath(id),
    body: roleChangeSchema,
    status: 200,
    response: personSchema,
  },
  "people.remove": {
    method: "DELETE",
    path: ({ id }: RecordId) => personPath(id),
    status: 204,
  },
  "settings.secondFactor.read": {
    method: "GET",
    path: PEOPLE_PATHS.secondFactorSetting,
    status: 200,
    response: secondFactorSettingSchema,
  },
  "settings.secondFactor.save": {
    method: "PUT",
    path: PEOPLE_PATHS.secondFactorSetting,
    body: secondFactorSettingSchema,
    status: 200,
    response: secondFactorSettingSchema,
  },
  "audit.search": {
    method: "GET",
    path: AUDIT_PATH,
    query: auditQuerySchema,
    status: 200,
    response: auditPageSchema,
  },

  // ---- Inquiries, and the posts the forms turned away ----
  "inquiries.list": {
    method: "GET",
    path: INQUIRY_PATHS.list,
    query: inquiryListQuerySchema,
    status: 200,
    response: inquiryPageSchema,
  },
  "inquiries.counts": {
    method: "GET",
    path: INQUIRY_PATHS.counts,
    status: 200,
    response: inboxCountsSchema,
  },
  "inquiries.unnotified": {
    method: "GET",
    path: INQUIRY_PATHS.unnotified,
    status: 200,
    response: unnotifiedSchema,
  },
  "inquiries.assignees": {
    method: "GET",
    path: INQUIRY_PATHS.assignees,
    status: 200,
    response: assigneesSchema,
  },
  "inquiries.read": {
    method: "GET",
    path: ({ id }: RecordId) => inquiryPath(INQUIRY_PATHS.one, id),
    status: 200,
    response: inquiryDetailSchema,
  },
  "inquiries.setStatus": {
    method: "PUT",
    path: ({ id }: RecordId) => inquiryPath(INQUIRY_PATHS.status, id),
    body: statusChangeSchema,
    status: 200,
    response: inquiryDetailSchema,
  },
  "inquiries.assign": {
    method: "PUT",
    path: ({ id }: RecordId) => inquiryPath(INQUIRY_PATHS.assignee, id),
    body: assignmentSchema,
    status: 200,
    response: inquiryDetailSchema,
  },
  "inquiries.addNote": {
    method: "POST",
    path: ({ id }: RecordId) => inquiryPath(INQUIRY_PATHS.notes, id),
    body: noteSchema,
    status: 201,
    response: inquiryDetailSchema,
  },
  "inquiries.erase": {
    method: "DELETE",
    path: ({ id }: RecordId) => inquiryPath(INQUIRY_PATHS.one, id),
    body: confirmAddressSchema,
    status: 200,
    response: inquirerErasureSchema,
  },
  "defences.trips": {
    method: "GET",
    path: DEFENCE_PATHS.trips,
    status: 200,
    response: defenceTripsSchema,
  },
  "turnedAway.list": {
    method: "GET",
    path: TURNED_AWAY_ROUTES.list,
    query: turnedAwayListQuerySchema,
    status: 200,
    response: turnedAwayListSchema,
  },
  "turnedAway.release": {
    method: "POST",
    path: ({ id }: RecordId) => turnedAwayPath(id, "release"),
    status: 200,
    response: releasedSchema,
  },
  "turnedAway.delete": {
    method: "DELETE",
    path: ({ id }: RecordId) => turnedAwayPath(id),
    status: 204,
  },

  // ---- Subscribers ----
  "subscribers.list": {
    method: "GET",
    path: SUBSCRIBER_ROUTES.list,
    query: subscriberListQuerySchema,
    status: 200,
    response: subscriberListSchema,
  },
  "subscribers.stats": {
    method: "GET",
    path: SUBSCRIBER_ROUTES.stats,
    status: 200,
    response: subscriberStatsSchema,
  },
  "subscribers.read": {
    method: "GET",
    path: ({ id }: RecordId) => subscriberPath(id),
    status: 200,
    response: subscriberDetailSchema,
  },
  "subscribers.unsubscribe": {
    method: "POST",
    path: ({ id }: RecordId) => subscriberPath(id, "unsubscribe"),
    status: 200,
    response: subscriberDetailSchema,
  },
  "subscribers.erase": {
    method: "DELETE",
    path: ({ id }: RecordId) => subscriberPath(id),
    body: confirmAddressSchema,
    status: 204,
  },
  "subscribers.importPreview": {
    method: "POST",
    path: IMPORT_ROUTES.preview,
    query: importMappingSchema,
    body: MULTIPART,
    status: 200,
    response: importPreviewSchema,
  },
  "subscribers.importDryRun": {
    method: "POST",
    path: IMPORT_ROUTES.dryRun,
    query: importMappingSchema,
    body: MULTIPART,
    status: 200,
    response: importReportSchema,
  },
  "subscribers.import": {
    method: "POST",
    path: IMPORT_ROUTES.run,
    query: importRunQuerySchema,
    body: MULTIPART,
    status: 200,
    response: importResultSchema,
  },

  // ---- The suppression list ----
  "suppressions.list": {
    method: "GET",
    path: SUPPRESSION_ROUTES.list,
    query: suppressionListQuerySchema,
    status: 200,
    response: suppressionListSchema,
  },
  "suppressions.lift": {
    method: "DELETE",
    path: ({ id }: RecordId) => suppressionPath(id),
    status: 204,
  },

  // ---- Mail settings ----
  "mailSettings.read": {
    method: "GET",
    path: MAIL_SETTINGS_PATHS.settings,
    status: 200,
    response: mailSettingsAnswerSchema,
  },
  "mailSettings.save": {
    method: "PUT",
    path: MAIL_SETTINGS_PATHS.settings,
    body: mailSettingsSaveSchema,
    status: 200,
    response: mailSettingsAnswerSchema,
  },
  "mailSettings.testMail": {
    method: "POST",
    path: MAIL_SETTINGS_PATHS.testMail,
    body: testMailSchema,
    status: 202,
    response: messageSchema,
  },

  // ---- The Audience area ----
  "audience.overview": {
    method: "GET",
    path: AUDIENCE_PATHS.overview,
    query: rangeQuerySchema,
    status: 200,
    response: overviewSchema,
  },
  "audience.breakdown": {
    method: "GET",
    path: AUDIENCE_PATHS.breakdown,
    query: breakdownQuerySchema,
    status: 200,
    response: breakdownSchema,
  },

  // ---- Backups ----
  "backups.list": {
    method: "GET",
    path: BACKUPS_PATH,
    status: 200,
    response: backupsAnswerSchema,
  },
  "backups.takeNow": {
    method: "POST",
    path: BACKUPS_PATH,
    status: 202,
    response: backupStartedSchema,
  },

  // ---- Sending health ----
  "health.show": {
    method: "GET",
    path: SENDING_HEALTH_PATH,
    status: 200,
    response: sendingHealthSchema,
  },
  "health.setAside": {
    method: "GET",
    path: SET_ASIDE_PATH,
    query: setAsideQuerySchema,
    status: 200,
    response: setAsideListSchema,
  },

  // ---- Insight issues and their sends ----
  "newsletter.list": {
    method: "GET",
    path: NEWSLETTER_PATHS.list,
    status: 200,
    response: issueListSchema,
  },
  "newsletter.create": {
    method: "POST",
    path: NEWSLETTER_PATHS.list,
    body: issueDraftSchema,
    status: 201,
    response: issueDetailSchema,
  },
  "newsletter.read": {
    method: "GET",
    path: ({ id }: RecordId) => NEWSLETTER_PATHS.one(id),
    status: 200,
    response: issueDetailSchema,
  },
  "newsletter.save": {
    method: "PUT",
    path: ({ id }: RecordId) => NEWSLETTER_PATHS.one(id),
    body: issueUpdateSchema,
    status: 200,
    response: issueDetailSchema,
  },
  "newsletter.delete": {
    method: "DELETE",
    path: ({ id }: RecordId) => NEWSLETTER_PATHS.one(id),
    status: 204,
  },
  "newsletter.testSend": {
    method: "POST",
    path: ({ id }: RecordId) => NEWSLETTER_PATHS.testSend(id),
    body: testSendSchema,
    status: 200,
    response: messageSchema,
  },
  "newsletter.send": {
    method: "POST",
    path: ({ id }: RecordId) => NEWSLETTER_PATHS.send(id),
    body: issueSendSchema,
    status: 200,
    response: issueDetailSchema,
  },
  "newsletter.unschedule": {
    method: "POST",
    path: ({ id }: RecordId) => NEWSLETTER_PATHS.unschedule(id),
    status: 200,
    response: issueDetailSchema,
  },
  "newsletter.pause": {
    method: "POST",
    path: ({ id }: RecordId) => NEWSLETTER_PATHS.pause(id),
    status: 200,
    response: issueDetailSchema,
  },
  "newsletter.resume": {
    method: "POST",
    path: ({ id }: RecordId) => NEWSLETTER_PATHS.resume(id),
    status: 200,
    response: issueDetailSchema,
  },
  "newsletter.cancel": {
    method: "POST",
    path: ({ id }: RecordId) => NEWSLETTER_PATHS.cancel(id),
    status: 200,
    response: issueDetailSchema,
  },

  // ---- A sent issue's archive page ----
  "newsletterArchive.correct": {
    method: "PUT",
    path: ({ id }: RecordId) => ARCHIVE_PATHS.page(id),
    body: archiveCorrectionSchema,
    status: 200,
    response: issueDetailSchema,
  },
  "newsletterArchive.versions": {
    method: "GET",
    path: ({ id }: RecordId) => ARCHIVE_PATHS.versions(id),
    status: 200,
    response: archiveVersionsSchema,
  },
  "newsletterArchive.restore": {
    method: "POST",
    path: ({ id, version }: RecordId & { version: number }) => ARCHIVE_PATHS.restore(id, version),
    body: archiveRestoreSchema,
    status: 200,
    response: issueDetailSchema,
  },
  "newsletterArchive.withdraw": {
    method: "POST",
    path: ({ id }: RecordId) => ARCHIVE_PATHS.withdraw(id),
    status: 200,
    response: issueDetailSchema,
  },
  "newsletterArchive.putBack": {
    method: "POST",
    path: ({ id }: RecordId) => ARCHIVE_PATHS.putBack(id),
    status: 200,
    response: issueDetailSchema,
  },

  // ---- Content: the lists, their pictures, the site facts ----
  "content.list": {
    method: "GET",
    path: ({ list }: { list: ContentList }) => CONTENT_PATHS.list(list),
    status: 200,
    response: listAnswerSchema,
  },
  "content.create": {
    method: "POST",
    path: ({ list }: { list: ContentList }) => CONTENT_PATHS.list(list),
    body: createSchemaOf,
    status: 201,
    response: entrySchema,
  },
  "content.reorder": {
    method: "PUT",
    path: ({ list }: { list: ContentList }) => CONTENT_PATHS.order(list),
    body: reorderSchema,
    status: 200,
    response: listAnswerSchema,
  },
  "content.read": {
    method: "GET",
    path: ({ list, id }: ListRecord) => CONTENT_PATHS.entry(list, id),
    status: 200,
    response: entrySchema,
  },
  "content.save": {
    method: "PUT",
    path: ({ list, id }: ListRecord) => CONTENT_PATHS.entry(list, id),
    body: saveSchemaOf,
    status: 200,
    response: entrySchema,
  },
  "content.setVisibility": {
    method: "PUT",
    path: ({ list, id }: ListRecord) => CONTENT_PATHS.visibility(list, id),
    body: visibilitySchema,
    status: 200,
    response: entrySchema,
  },
  "content.versions": {
    method: "GET",
    path: ({ list, id }: ListRecord) => CONTENT_PATHS.versions(list, id),
    status: 200,
    response: versionsAnswerSchema,
  },
  "content.restore": {
    method: "POST",
    path: ({ list, id, version }: ListRecord & { version: number }) =>
      CONTENT_PATHS.restore(list, id, version),
    body: restoreSchema,
    status: 200,
    response: entrySchema,
  },
  "content.draft": {
    method: "GET",
    path: ({ list, id }: ListRecord) => DRAFT_PATHS.draft(list, id),
    status: 200,
    response: draftAnswerSchema,
  },
  "content.saveDraft": {
    method: "PUT",
    path: ({ list, id }: ListRecord) => DRAFT_PATHS.draft(list, id),
    body: draftSaveSchemaOf,
    status: 200,
    response: draftSchema,
  },
  "content.discardDraft": {
    method: "DELETE",
    path: ({ list, id }: ListRecord) => DRAFT_PATHS.draft(list, id),
    status: 204,
  },
  "content.publishDraft": {
    method: "POST",
    path: ({ list, id }: ListRecord) => DRAFT_PATHS.publish(list, id),
    status: 200,
    response: entrySchema,
  },
  "content.scheduleDraft": {
    method: "PUT",
    path: ({ list, id }: ListRecord) => DRAFT_PATHS.schedule(list, id),
    body: scheduleSchema,
    status: 200,
    response: draftSchema,
  },
  "content.unscheduleDraft": {
    method: "DELETE",
    path: ({ list, id }: ListRecord) => DRAFT_PATHS.schedule(list, id),
    status: 200,
    response: draftSchema,
  },
  "content.previewDraft": {
    method: "POST",
    path: ({ list, id }: ListRecord) => DRAFT_PATHS.preview(list, id),
    status: 200,
    response: previewLinkSchema,
  },
  "media.upload": {
    method: "POST",
    path: MEDIA_API,
    query: uploadQuerySchema,
    body: MULTIPART,
    status: 201,
    response: uploadAnswerSchema,
  },
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
  "webhooks.list": {
    method: "GET",
    path: WEBHOOK_ROUTES.list,
    status: 200,
    response: webhookListSchema,
  },
  "webhooks.add": {
    method: "POST",
    path: WEBHOOK_ROUTES.list,
    body: webhookSaveSchema,
    status: 201,
    response: webhookWithSecretSchema,
  },
  "webhooks.save": {
    method: "PUT",
    path: ({ id }: RecordId) => webhookPath.one(id),
    body: webhookSaveSchema,
    status: 200,
    response: webhookSchema,
  },
  "webhooks.remove": {
    method: "DELETE",
    path: ({ id }: RecordId) => webhookPath.one(id),
    status: 200,
    response: messageSchema,
  },
  "webhooks.secret": {
    method: "GET",
    path: ({ id }: RecordId) => webhookPath.secret(id),
    status: 200,
    response: webhookSecretSchema,
  },
  "webhooks.rotate": {
    method: "POST",
    path: ({ id }: RecordId) => webhookPath.rotate(id),
    status: 200,
    response: webhookWithSecretSchema,
  },
  "webhooks.deliveries": {
    method: "GET",
    path: ({ id }: RecordId) => webhookPath.deliveries(id),
    status: 200,
    response: deliveryListSchema,
  },
  "webhooks.test": {
    method: "POST",
    path: ({ id }: RecordId) => webhookPath.test(id),
    status: 202,
    response: testQueuedSchema,
  },
} as const satisfies Record<string, RouteEntry>;

export type ConsoleRoutes = typeof CONSOLE_ROUTES;
export type RouteKey = keyof ConsoleRoutes;

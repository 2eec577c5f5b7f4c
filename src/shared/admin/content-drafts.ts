/**
 * Drafts of the content lists' records: an edit kept aside (one per record)
 * that the site does not show until it is published, now or at a time; its
 * preview link; and every payload and text of the drafts' API. The
 * console's edit screen, its client and the server's routes all use these.
 */
import { z } from "zod";
import {
  CONTENT_PATHS,
  type ContentList,
  entrySchema,
  type ListRecord,
  type ListSpec,
} from "./content.ts";
import { loadedVersionSchema } from "./record-version.ts";
import type { RouteSlice } from "./route-entry.ts";

type Id = number | ":id";

export const DRAFT_PATHS = {
  draft: (list: ContentList, id: Id) => `${CONTENT_PATHS.entry(list, id)}/draft`,
  publish: (list: ContentList, id: Id) => `${CONTENT_PATHS.entry(list, id)}/draft/publish`,
  schedule: (list: ContentList, id: Id) => `${CONTENT_PATHS.entry(list, id)}/draft/schedule`,
  preview: (list: ContentList, id: Id) => `${CONTENT_PATHS.entry(list, id)}/draft/preview`,
};

/** The query parameter of a public page that carries a preview link's token. */
export const PREVIEW_PARAMETER = "preview";

/** How long a preview link opens the draft: long enough to read and share with a colleague at the desk. */
export const PREVIEW_LINK_MINUTES = 60;

/**
 * Saving a draft: the record's fields as the form holds them, checked by the
 * list's own rules (so every draft can be published as it stands), and the
 * version of the record the editor began from.
 */
export function draftSaveSchemaOf(spec: ListSpec) {
  return z.strictObject({ fields: spec.schema, baseVersion: loadedVersionSchema });
}

export const draftSchema = z.object({
  id: z.number().int(),
  fields: z.record(z.string(), z.string()),
  /** The version of the record the draft began from. */
  baseVersion: z.number().int(),
  /** Who saved it last (an e-mail address) and when (ISO 8601). */
  author: z.string(),
  updatedAt: z.string(),
  /** When the publisher is to publish it (ISO 8601), or null. */
  publishAt: z.string().nullable(),
  scheduledBy: z.string().nullable(),
  /** Why a scheduled publication did not happen, or null. */
  conflict: z.string().nullable(),
});
export type Draft = z.infer<typeof draftSchema>;

/** A record's draft, or null when it has none. */
export const draftAnswerSchema = z.object({ draft: draftSchema.nullable() });
export type DraftAnswer = z.infer<typeof draftAnswerSchema>;

export const scheduleSchema = z.strictObject({
  publishAt: z.iso.datetime({ offset: true, message: "Enter a date and time." }),
});

export const previewLinkSchema = z.object({
  /** The public page's address, with the token: opens the draft for a signed-in person only. */
  url: z.string(),
  expiresAt: z.string(),
});
export type PreviewLink = z.infer<typeof previewLinkSchema>;

export const DRAFT_TEXTS = {
  noDraft: (singular: string) =>
    `There is no draft of this ${singular}: it was published or discarded. Reload to see it as it is now.`,
  conflict: (singular: string, base: number, current: number) =>
    `This draft began from version ${base}, but the ${singular} is now at version ${current}: someone saved or restored it since. Compare your draft with what is published, then choose “Keep my draft” to publish it over theirs, or discard it.`,
  notPublished: (reason: string) => `The scheduled publication did not happen. ${reason}`,
  pastTime: "Choose a time in the future.",
  /** A preview pass refused at its use: the page's whole answer, in the browser tab the link opened. */
  previewSessionEnded:
    "This preview link no longer opens the draft: the console session that asked for it has ended (signed out, timed out, or its account removed). Sign in to the console and ask for a new link.",
  previewRoleTooWeak:
    "This preview link no longer opens the draft: the account that asked for it may no longer work on drafts (editors and owners may). Ask an editor for a new link.",
  previewSecondFactor:
    "This preview link no longer opens the draft: the console now asks everyone for a second factor, and the account that asked for it has none. Set one up in the console, then ask for a new link.",
} as const;

/**
 * This area's entries of the console's route map (console-routes.ts):
 * A content record's draft: kept, discarded, published, scheduled or previewed.
 */
export const DRAFT_CONSOLE_ROUTES = {
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
} as const satisfies RouteSlice;

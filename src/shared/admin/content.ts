/**
 * The content the console edits: its six lists, each
 * record's fields with their rules and labels, and every payload of the
 * content API. The console's forms, its API client and the server's routes
 * all use these definitions.
 */
import { z } from "zod";
import {
  CATEGORIES_IN_MENU,
  CATEGORIES_WITH_IMAGES,
  type ContentCategory,
  ITEM_NAME_MAX,
} from "../content-categories.ts";
import { ANCHORS, ROUTES } from "../routes.ts";
import { rowNumberSchema } from "../row-id.ts";
import { ruledText } from "../schemas.ts";
import { ADMIN_API } from "./auth.ts";
import { loadedVersionSchema, orderVersionSchema } from "./record-version.ts";
import { MULTIPART, type RecordId, type RouteSlice } from "./route-entry.ts";

export const CONTENT_API = `${ADMIN_API}/content`;
export const MEDIA_API = `${ADMIN_API}/media`;

/** A record's id, or the route's parameter for it. */
type Id = number | ":id";

/** The content API's paths: the server registers them with ":id", the console calls them with ids. */
export const CONTENT_PATHS = {
  list: (list: ContentList) => `${CONTENT_API}/${list}`,
  order: (list: ContentList) => `${CONTENT_API}/${list}/order`,
  entry: (list: ContentList, id: Id) => `${CONTENT_API}/${list}/${id}`,
  visibility: (list: ContentList, id: Id) => `${CONTENT_API}/${list}/${id}/visibility`,
  versions: (list: ContentList, id: Id) => `${CONTENT_API}/${list}/${id}/versions`,
  restore: (list: ContentList, id: Id, version: number | ":version") =>
    `${CONTENT_API}/${list}/${id}/versions/${version}/restore`,
};

export const CONTENT_LISTS = [
  "team",
  "ethos",
  "industries",
  "techneeds",
  "capabilities",
  "case-studies",
] as const;
export type ContentList = (typeof CONTENT_LISTS)[number];

/** The parameters of a call about one record of a content list. */
export interface ListRecord extends RecordId {
  list: ContentList;
}

/** What a version row names its record by (content_versions.entity). */
export type VersionedEntity = "team" | "item" | "case-study";
/** The entity of a list's order, versioned as a whole (its key is the list). */
export const ORDER_ENTITY = "order";

// ---- Pictures ----

export const IMAGE_KINDS = ["portrait", "item", "issue"] as const;
export type ImageKind = (typeof IMAGE_KINDS)[number];

/**
 * How a picture meets its frame: "cover" crops it to exactly the frame (the
 * site's cards and portraits sit in a grid of equal boxes); "inside" only
 * shrinks it until it fits, keeping its shape and every edge, and never
 * enlarges it (a picture in an issue is shown as the firm made it: a wide
 * banner stays wide, a chart keeps its axes).
 */
export type ImageFit = "cover" | "inside";

/**
 * The size each kind of picture is made at, how it is fitted to it, and the
 * folder the pages take it from (images/pictures/, images/items/ and
 * images/insight/). Portraits and items are cropped to exactly their frame,
 * as the seed's pictures are; an issue's picture is at most its frame, which
 * is twice the e-mail's 552-pixel column, so it stays sharp on a
 * high-density screen.
 */
export const IMAGE_FORMATS: Record<
  ImageKind,
  { width: number; height: number; fit: ImageFit; folder: "pictures" | "items" | "insight" }
> = {
  portrait: { width: 480, height: 600, fit: "cover", folder: "pictures" },
  item: { width: 800, height: 600, fit: "cover", folder: "items" },
  issue: { width: 1104, height: 1104, fit: "inside", folder: "insight" },
};

/** The kinds that must be described: a picture in an issue reaches mail programs that block pictures. */
export const DESCRIBED_IMAGE_KINDS: readonly ImageKind[] = ["issue"];

/** The longest description an upload takes: a sentence or two, as alt text should be. */
export const IMAGE_DESCRIPTION_MAX = 300;

export function imageUrl(kind: ImageKind, imagePath: string): string {
  return `/images/${IMAGE_FORMATS[kind].folder}/${encodeURIComponent(imagePath)}`;
}

export const ACCEPTED_IMAGE_TYPES = ["image/jpeg", "image/png", "image/webp", "image/avif"];

export const uploadAnswerSchema = z.object({
  /** What a record's picture field stores: the file's name in its folder. */
  imagePath: z.string(),
  url: z.string(),
  width: z.number().int(),
  height: z.number().int(),
});
export type UploadAnswer = z.infer<typeof uploadAnswerSchema>;

/**
 * What kind of picture is uploaded, and what it shows: a picture in an issue
 * is refused without its description, which is what a reader gets where a
 * mail program blocks pictures or a screen reader reads the issue out.
 */
/**
 * Where the editor put a cropped picture's focal point, in percent of its
 * width and height from the top left.
 */
export interface FocalPoint {
  x: number;
  y: number;
}

const focusPercent = z.coerce
  .number({ error: "Give the focal point as a percentage." })
  .int("Give the focal point as a whole percentage.")
  .min(0, "The focal point is inside the picture: 0 to 100 %.")
  .max(100, "The focal point is inside the picture: 0 to 100 %.");

export const uploadQuerySchema = z
  .object({
    kind: z.enum(IMAGE_KINDS),
    description: z
      .string()
      .trim()
      .max(
        IMAGE_DESCRIPTION_MAX,
        `Keep the description to ${IMAGE_DESCRIPTION_MAX} characters or fewer.`,
      )
      .optional(),
    /** A cropped picture's focal point, in percent across and down (both or neither). */
    focusX: focusPercent.optional(),
    focusY: focusPercent.optional(),
  })
  .superRefine(({ kind, description, focusX, focusY }, context) => {
    if ((focusX === undefined) !== (focusY === undefined)) {
      context.addIssue({
        code: "custom",
        path: [focusX === undefined ? "focusX" : "focusY"],
        message: "Give the focal point across and down, or neither.",
      });
    }
    if (DESCRIBED_IMAGE_KINDS.includes(kind) && !description) {
      context.addIssue({
        code: "custom",
        path: ["description"],
        message: CONTENT_TEXTS.undescribedImage,
      });
    }
  });

// ---- Fields ----

/** A text the form shows as one line, or as a text area ("multiline"). */
const text = (what: string, max: number, kind: "text" | "multiline" = "text") =>
  ruledText(kind)
    .transform((value) => value.replace(/\r\n?/g, "\n").trim())
    .pipe(z.string().min(1, `Enter ${what}.`).max(max, `Keep it to ${max} characters.`));

/** A file name in the pictures' folder, as the seed and the uploads name them. */
const imagePath = z
  .string({ error: "Upload a picture." })
  .regex(/^[a-z0-9][a-z0-9._-]{0,99}\.(?:webp|avif|png|jpe?g)$/, "Upload a picture.");

const slug = z
  .string()
  .trim()
  .max(80, "Keep it to 80 characters.")
  .regex(
    /^[a-z0-9]+(?:-[a-z0-9]+)*$/,
    "Use lowercase words joined by hyphens, e.g. finance-ar-forecast.",
  );

const teamFields = z.strictObject({
  fullname: text("the full name", 120),
  title: text("the job title", 160),
  bio: text("a short biography", 2000, "multiline"),
  imagePath,
});
const itemFields = z.strictObject({
  name: text("a name", ITEM_NAME_MAX),
  description: text("a description", 1000, "multiline"),
});
const itemWithImageFields = itemFields.extend({ imagePath });
/**
 * A text that may be left empty. Absent reads as empty, so a version saved
 * before the field existed can still be restored.
 */
const optionalText = (max: number) =>
  ruledText("text")
    .transform((value) => value.trim())
    .pipe(z.string().max(max, `Keep it to ${max} characters.`))
    .default("");

export const OUTCOME_LIMITS = { figure: 12, label: 80 } as const;

/** A case study's sections: paragraphs separated by a blank line. */
const caseStudyFields = z
  .strictObject({
    slug,
    title: text("a title", 160),
    summary: text("a summary", 600, "multiline"),
    opportunity: text("the opportunity", 20_000, "multiline"),
    solution: text("the solution", 20_000, "multiline"),
    work: text("the work", 20_000, "multiline"),
    outcomeFigure: optionalText(OUTCOME_LIMITS.figure),
    outcomeLabel: optionalText(OUTCOME_LIMITS.label),
  })
  .superRefine(({ outcomeFigure, outcomeLabel }, context) => {
    // A figure without its measure, or a measure without its figure, says nothing on Home.
    if (outcomeFigure && !outcomeLabel) {
      context.addIssue({
        code: "custom",
        path: ["outcomeLabel"],
        message: "Say what the figure measures, or clear the figure.",
      });
    }
    if (outcomeLabel && !outcomeFigure) {
      context.addIssue({
        code: "custom",
        path: ["outcomeFigure"],
        message: "Give the figure, or clear what it measures.",
      });
    }
  });

/** The line under an entry in the site's menu: one short line, or empty for the description's start. */
export const MENU_LINE_MAX = 80;
const menuLine = optionalText(MENU_LINE_MAX);

export interface FieldSpec {
  name: string;
  label: string;
  hint?: string;
  /** A long text: a text area this many rows high. */
  rows?: number;
}

const PARAGRAPHS_HINT = "Separate paragraphs with a blank line.";

export interface ListSpec {
  list: ContentList;
  /** The tab's label: "Tech needs". */
  label: string;
  /** One record, in a sentence: "tech need". */
  singular: string;
  entity: VersionedEntity;
  /** The content_items category of an item list. */
  category?: ContentCategory;
  /** The picture a record carries, if any (stored in its imagePath field). */
  image?: ImageKind;
  /** The field that names a record in lists and messages. */
  titleField: string;
  /** The field no two records of the list share (what the import matches records by). */
  keyField: string;
  fields: FieldSpec[];
  schema: z.ZodType<EntryFields, EntryFields>;
  /** The public page that shows the list. */
  publicPath: string;
}

function itemList(
  list: ContentCategory,
  label: string,
  singular: string,
  publicPath: string,
): ListSpec {
  const withImage = CATEGORIES_WITH_IMAGES.includes(list);
  const inMenu = (CATEGORIES_IN_MENU as readonly ContentCategory[]).includes(list);
  const fields = withImage ? itemWithImageFields : itemFields;
  return {
    list,
    label,
    singular,
    entity: "item",
    category: list,
    ...(withImage ? { image: "item" as const } : {}),
    titleField: "name",
    keyField: "name",
    fields: [
      { name: "name", label: "Name" },
      { name: "description", label: "Description", rows: 4 },
      ...(inMenu
        ? [
            {
              name: "menuLine",
              label: "Menu line",
              hint: `Shown under the name in the site's menu, up to ${MENU_LINE_MAX} characters. Left empty, the menu shows the start of the description.`,
            },
          ]
        : []),
    ],
    schema: inMenu ? fields.extend({ menuLine }) : fields,
    publicPath,
  };
}

export const LIST_SPECS: Record<ContentList, ListSpec> = {
  team: {
    list: "team",
    label: "Team",
    singular: "team member",
    entity: "team",
    image: "portrait",
    titleField: "fullname",
    keyField: "fullname",
    fields: [
      { name: "fullname", label: "Full name" },
      { name: "title", label: "Job title" },
      { name: "bio", label: "Biography", rows: 6 },
    ],
    schema: teamFields,
    publicPath: `${ROUTES.weAre}#${ANCHORS.leadership}`,
  },
  ethos: itemList("ethos", "Ethos", "ethos card", `${ROUTES.weAre}#${ANCHORS.ethos}`),
  industries: itemList(
    "industries",
    "Industries",
    "industry",
    `${ROUTES.weServe}#${encodeURIComponent(ANCHORS.industriesAndTechNeeds)}`,
  ),
  techneeds: itemList(
    "techneeds",
    "Tech needs",
    "tech need",
    `${ROUTES.weServe}#${encodeURIComponent(ANCHORS.industriesAndTechNeeds)}`,
  ),
  capabilities: itemList(
    "capabilities",
    "Capabilities",
    "capability",
    `${ROUTES.weDo}#${ANCHORS.capabilities}`,
  ),
  "case-studies": {
    list: "case-studies",
    label: "Case studies",
    singular: "case study",
    entity: "case-study",
    titleField: "title",
    keyField: "slug",
    fields: [
      {
        name: "slug",
        label: "Address",
        hint: "The end of the page's address, /weserve/case-studies/… Changing it changes the address.",
      },
      {
        name: "title",
        label: "Title",
        hint: "Sector, a colon, then the topic: Finance: AR Forecast.",
      },
      { name: "summary", label: "Summary", rows: 3 },
      { name: "opportunity", label: "The Opportunity", hint: PARAGRAPHS_HINT, rows: 10 },
      { name: "solution", label: "The Solution", hint: PARAGRAPHS_HINT, rows: 10 },
      { name: "work", label: "The Work", hint: PARAGRAPHS_HINT, rows: 10 },
      {
        name: "outcomeFigure",
        label: "Outcome figure",
        hint: `Optional. The result Home shows in large type, e.g. 38%. At most ${OUTCOME_LIMITS.figure} characters.`,
      },
      {
        name: "outcomeLabel",
        label: "What the figure measures",
        hint: "Read after the figure, e.g. more accurate 90-day cash forecast.",
      },
    ],
    schema: caseStudyFields,
    publicPath: `${ROUTES.weServe}#${ANCHORS.caseStudies}`,
  },
};

export const IMAGE_LABELS: Record<ImageKind, string> = {
  portrait: "Portrait",
  item: "Picture",
  issue: "Picture",
};

// ---- Payloads and answers ----

/** A record's fields, by name (each list's schema says which). */
export type EntryFields = Record<string, string>;

const entryMeta = z.object({
  id: z.number().int(),
  version: z.number().int(),
  hidden: z.boolean(),
  updatedAt: z.string(),
});
const fieldValues = z.record(z.string(), z.string());

/** A record as the console shows it: its fields and its version. */
export const entrySchema = entryMeta.extend({ fields: fieldValues });
export type Entry = z.infer<typeof entrySchema>;

/** A record's draft as its list shows it: that there is one, and when it is to be published. */
export const listedDraftSchema = z.object({
  recordId: z.number().int(),
  publishAt: z.string().nullable(),
});
export type ListedDraft = z.infer<typeof listedDraftSchema>;

export const listAnswerSchema = z.object({
  /** The version of the list's order the console loaded; a reorder sends it back. */
  orderVersion: z.number().int(),
  entries: z.array(entrySchema),
  /** The records with a draft waiting (content-drafts.ts). */
  drafts: z.array(listedDraftSchema),
});
export type ListAnswer = z.infer<typeof listAnswerSchema>;

/** Creating a record: its fields and whether it starts hidden. */
export function createSchemaOf(spec: ListSpec) {
  return z.strictObject({ fields: spec.schema, hidden: z.boolean() });
}

/** Saving a record: also the version the editor loaded (a stale one is refused). */
export function saveSchemaOf(spec: ListSpec) {
  return z.strictObject({ fields: spec.schema, hidden: z.boolean(), version: loadedVersionSchema });
}

export const visibilitySchema = z.strictObject({
  hidden: z.boolean(),
  version: loadedVersionSchema,
});

export const restoreSchema = z.strictObject({ version: loadedVersionSchema });

export const reorderSchema = z.strictObject({
  orderVersion: orderVersionSchema,
  ids: z
    .array(rowNumberSchema)
    .min(1)
    .max(500)
    .refine((ids) => new Set(ids).size === ids.length, "names a record twice"),
});

export const versionSchema = z.object({
  version: z.number().int(),
  author: z.string(),
  createdAt: z.string(),
  hidden: z.boolean(),
  fields: fieldValues,
});
export type Version = z.infer<typeof versionSchema>;

export const versionsAnswerSchema = z.object({ versions: z.array(versionSchema) });

// ---- Texts ----

export const CONTENT_TEXTS = {
  stale: (singular: string) =>
    `Someone else saved this ${singular} since you opened it. Reload to see their changes; your text is still in the form.`,
  /** A change made from a list or a version, where nothing typed is at stake. */
  staleAction: (singular: string) =>
    `Someone else saved this ${singular} since you opened it. Reload to see it as it is now, then try again.`,
  staleOrder:
    "Someone else changed this list since you opened it. Reload to see it as it is now, then move the entries again.",
  notFound: (singular: string) => `There is no such ${singular}. It may have been removed.`,
  duplicate: (singular: string, label: string, value: string) =>
    `Another ${singular} already has the ${label.toLowerCase()} “${value}”. Choose another.`,
  noSuchVersion: "There is no such version of this record.",
  unreadableVersion: (reason: string) => `This version cannot be restored: ${reason}`,
  tooLarge: (megabytes: number) =>
    `The picture is larger than ${megabytes} MB. Save it smaller (a photo of 2,000 pixels is plenty) and upload it again.`,
  tooManyPixels: (megapixels: number) =>
    `The picture has more than ${megapixels} million pixels. Save it smaller and upload it again.`,
  tooThin: (width: number, height: number, ratio: number, fit: ImageFit = "cover") =>
    `The picture is ${width} × ${height} pixels, too long and thin to ${fit === "cover" ? "crop for the page" : "show in an issue"}. Choose one whose longer side is at most ${ratio} times its shorter side.`,
  tooSmall: (
    size: { width: number; height: number },
    frame: { width: number; height: number },
    least: { width: number; height: number },
  ) =>
    `The picture is ${size.width} × ${size.height} pixels, too small for the page, which shows it at ${frame.width} × ${frame.height}. Choose one of at least ${least.width} × ${least.height} pixels.`,
  unreadableImage:
    "This picture cannot be read: its file is damaged or incomplete. Save it again from your photo app and upload it.",
  unsupportedType:
    "This file is not a JPEG, PNG, WebP or AVIF picture, whatever its name says. Choose a picture in one of those formats.",
  noFile: "Choose a picture to upload.",
  undescribedImage:
    "Describe the picture first: the description is read out to people who cannot see it, and shown where a mail program blocks pictures.",
} as const;

/**
 * This area's entries of the console's route map (console-routes.ts):
 * The content lists and their records (order, visibility, versions), and a picture's upload.
 */
export const CONTENT_CONSOLE_ROUTES = {
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
  "media.upload": {
    method: "POST",
    path: MEDIA_API,
    query: uploadQuerySchema,
    body: MULTIPART,
    status: 201,
    response: uploadAnswerSchema,
  },
} as const satisfies RouteSlice;

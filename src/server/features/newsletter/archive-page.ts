/**
 * A sent issue's page in the archive, after its mail went out. Correcting it
 * writes the new title, summary and body and the web HTML rendered from them;
 * withdrawing it takes it out of the archive, and putting it back returns it.
 * None of this touches the mail: the e-mail's HTML and text frozen when the
 * send was asked for, and the outbox's copies, stay as they were sent.
 *
 * Only a sent issue qualifies: while copies are still going out, each takes
 * its Subject from the issue's title, and a send whose copies differ is worse
 * than a correction that waits for the last one.
 *
 * Each correction is a version in content_versions, as site content is
 * (ADR 015): the page as it was sent is recorded first, the first time it is
 * corrected, so the history always starts with what the subscribers read.
 * The issue's own `version`, which guarded the draft's saves, goes on
 * guarding the page's: a correction names the version it was made from, and
 * the UPDATE's WHERE decides which of two racing corrections wins.
 */
import type { Kysely } from "kysely";
import type { IssueDetail } from "../../../shared/admin/newsletter.ts";
import { NEWSLETTER_TEXTS } from "../../../shared/admin/newsletter.ts";
import {
  ARCHIVE_PAGE_ENTITY,
  ARCHIVE_TEXTS,
  type ArchivePage,
  type ArchiveVersion,
  archivePageSchema,
} from "../../../shared/admin/newsletter-archive.ts";
import type { Author } from "../../platform/console/author.ts";
import { type Database, nowIso } from "../../platform/db/schema.ts";
import { isUniqueViolation } from "../../platform/db/unique-violation.ts";
import { refuse } from "../../platform/refusal.ts";
import { findVersion, listVersions, recordVersion } from "../content/index.ts";
import { findIssue, type IssueRecord, issueProgress } from "./issues.ts";

const missing = () => refuse.notFound(NEWSLETTER_TEXTS.notFound);

/** The issue as the console shows it. */
export async function issueDetail(db: Kysely<Database>, id: number): Promise<IssueDetail> {
  const issue = await findIssue(db, id);
  if (!issue) throw missing();
  const { queuedAllAt: _queuedAllAt, rate: _rate, ...shown } = issue;
  return { ...shown, progress: await issueProgress(db, issue) };
}

/** The sent issue `id`, or the refusal that says why there is none. */
async function sentIssue(db: Kysely<Database>, id: number): Promise<IssueRecord> {
  const issue = await findIssue(db, id);
  if (!issue) throw missing();
  if (issue.status !== "sent") throw refuse.conflict(ARCHIVE_TEXTS.notSent);
  return issue;
}

const pageOf = ({ title, summary, body }: ArchivePage): ArchivePage => ({ title, summary, body });
const keyOf = (id: number) => String(id);

export interface Correction {
  /** The version the editor loaded. */
  loadedVersion: number;
  page: ArchivePage;
  author: Author;
  /** The web page's HTML for the corrected text, as the send's renderer makes it. */
  render: (page: ArchivePage & { slug: string }) => string;
  /** The sentence a stale correction is refused with. */
  staleMessage?: string;
}

/** Writes a correction of a sent issue's page as its next version; refused if stale or not sent. */
export async function correctPage(
  db: Kysely<Database>,
  id: number,
  { loadedVersion, page, author, render, staleMessage = ARCHIVE_TEXTS.stale }: Correction,
): Promise<{ version: number; changed: (keyof ArchivePage)[] }> {
  const stale = () => refuse.conflict(staleMessage);
  const current = await sentIssue(db, id);
  if (current.version !== loadedVersion) throw stale();
  const now = nowIso();
  const updated = await db
    .updateTable("issues")
    .set((eb) => ({
      ...pageOf(page),
      web_html: render({ ...pageOf(page), slug: current.slug }),
      version: eb("version", "+", 1),
      corrected_at: now,
      archive_changed_at: now,
      updated_at: now,
    }))
    .where("id", "=", id)
    .where("version", "=", loadedVersion)
    .where("status", "=", "sent")
    .executeTakeFirst();
  if (updated.numUpdatedRows === 0n) throw stale();
  const key = keyOf(id);
  // The page as it was sent, the first time it is corrected.
  await recordVersion(
    db,
    {
      entity: ARCHIVE_PAGE_ENTITY,
      key,
      version: loadedVersion,
      data: pageOf(current),
      userId: null,
      author: current.author,
      at: current.startedAt ?? current.updatedAt,
    },
    { ifAbsent: true },
  );
  await recordVersion(db, {
    entity: ARCHIVE_PAGE_ENTITY,
    key,
    version: loadedVersion + 1,
    data: pageOf(page),
    userId: author.userId,
    author: author.recordedAs,
    at: now,
  }).catch((error: unknown) => {
    throw isUniqueViolation(error) ? stale() : error;
  });
  const changed = (["title", "summary", "body"] as const).filter(
    (field) => current[field] !== page[field],
  );
  return { version: loadedVersion + 1, changed };
}

/** An earlier version's text, or the refusal that says it cannot be had. */
export async function earlierPage(
  db: Kysely<Database>,
  id: number,
  version: number,
): Promise<ArchivePage> {
  const earlier = await findVersion(db, ARCHIVE_PAGE_ENTITY, keyOf(id), version);
  const page = archivePageSchema.safeParse(earlier?.data);
  if (!page.success) throw refuse.notFound(ARCHIVE_TEXTS.noSuchVersion);
  return page.data;
}

/**
 * The page's versions, newest first. A page never corrected has none stored:
 * its text as sent is shown as its only version.
 */
export async function pageVersions(db: Kysely<Database>, id: number): Promise<ArchiveVersion[]> {
  const issue = await findIssue(db, id);
  if (!issue) throw missing();
  if (issue.status !== "sent") return [];
  const stored = await listVersions(db, ARCHIVE_PAGE_ENTITY, keyOf(id));
  const versions = stored.flatMap(({ version, author, createdAt, data }) => {
    const page = archivePageSchema.safeParse(data);
    return page.success ? [{ version, author, createdAt, ...page.data }] : [];
  });
  if ((stored[0]?.version ?? 0) < issue.version) {
    versions.unshift({
      version: issue.version,
      author: issue.author,
      createdAt: issue.startedAt ?? issue.updatedAt,
      ...pageOf(issue),
    });
  }
  return versions;
}

/**
 * Withdraws a sent issue from the archive, or puts it back: one UPDATE whose
 * WHERE names the state it leaves, so a second click changes nothing and is
 * told why.
 */
export async function setWithdrawn(
  db: Kysely<Database>,
  id: number,
  withdrawn: boolean,
): Promise<void> {
  const now = nowIso();
  const result = await db
    .updateTable("issues")
    .set({ withdrawn_at: withdrawn ? now : null, archive_changed_at: now, updated_at: now })
    .where("id", "=", id)
    .where("status", "=", "sent")
    .where("withdrawn_at", withdrawn ? "is" : "is not", null)
    .executeTakeFirst();
  if (result.numUpdatedRows > 0n) return;
  await sentIssue(db, id);
  throw refuse.conflict(withdrawn ? ARCHIVE_TEXTS.alreadyWithdrawn : ARCHIVE_TEXTS.notWithdrawn);
}

/**
 * Loads content from JSON files in the seed's format (content/*.json) into
 * a site that already has content. A record is matched by
 * its key (a team member's full name, an item's name in its category, a case
 * study's slug): a new one is added at the end of its list, a changed one is
 * saved as its next version by "import", an unchanged one is left alone, so
 * a second run changes nothing. The site facts (site.json) are one record,
 * saved the same way when any of them differs. The order and the hidden flag
 * stay as the console set them. One transaction: the whole import, or nothing.
 */

import { type EntryFields, LIST_SPECS, type ListSpec } from "../../../shared/admin/content.ts";
import { SITE_FACTS_LABEL } from "../../../shared/admin/site-facts.ts";
import { CONTENT_CATEGORIES } from "../../../shared/content-categories.ts";
import { SITE_FACT_KEYS } from "../../../shared/site-facts.ts";
import { recordAudit } from "../../platform/audit/queries.ts";
import type { Author } from "../../platform/console/author.ts";
import { findEntry, findIdByField } from "./admin-queries.ts";
import { createIn, saveIn } from "./editing.ts";
import { PARAGRAPH_BREAK } from "./queries.ts";
import { readContentFiles } from "./seed.ts";
import type { SiteContent } from "./site-content.ts";
import { saveFactsIn } from "./site-facts.ts";
import { readStoredFacts } from "./site-facts-rows.ts";

export const IMPORT_AUTHOR: Author = { userId: null, recordedAs: "import" };

export interface ImportReport {
  /** "list: key" of each record added or changed. */
  created: string[];
  updated: string[];
  unchanged: number;
}

/** Each record of the files, with the list it belongs to; and the site facts. */
async function recordsIn(contentDir: string) {
  const { team, items, caseStudies, facts } = await readContentFiles(contentDir);
  const records: [ListSpec, Record<string, unknown>][] = [
    ...team.map((member): [ListSpec, Record<string, unknown>] => [LIST_SPECS.team, member]),
    ...CONTENT_CATEGORIES.flatMap((category) =>
      items[category].map((item): [ListSpec, Record<string, unknown>] => [
        LIST_SPECS[category],
        item,
      ]),
    ),
    ...caseStudies.map((study): [ListSpec, Record<string, unknown>] => [
      LIST_SPECS["case-studies"],
      {
        ...study,
        opportunity: study.opportunity.join(PARAGRAPH_BREAK),
        solution: study.solution.join(PARAGRAPH_BREAK),
        work: study.work.join(PARAGRAPH_BREAK),
      },
    ]),
  ];
  return { records, facts };
}

/** The record's fields as the console would store them, checked by the console's rules. */
function fieldsOf(spec: ListSpec, record: Record<string, unknown>): EntryFields {
  const names = [...spec.fields.map((field) => field.name), ...(spec.image ? ["imagePath"] : [])];
  const parsed = spec.schema.safeParse(
    Object.fromEntries(names.map((name) => [name, record[name]])),
  );
  if (!parsed.success) {
    const issue = parsed.error.issues[0];
    throw new Error(
      `${spec.label} “${String(record[spec.keyField])}”: ${String(issue?.path[0] ?? "")} ${issue?.message ?? "is not valid"}`,
    );
  }
  return parsed.data;
}

function sameFields(a: EntryFields, b: EntryFields): boolean {
  return Object.keys(b).every((name) => a[name] === b[name]);
}

export async function importContent(
  content: SiteContent,
  contentDir: string,
): Promise<ImportReport> {
  // site.json is checked by the console's rules as it is read (readContentFiles).
  const { records: fileRecords, facts } = await recordsIn(contentDir);
  const records = fileRecords.map(([spec, record]) => [spec, fieldsOf(spec, record)] as const);
  const report: ImportReport = { created: [], updated: [], unchanged: 0 };
  await content.edit(async (trx) => {
    for (const [spec, fields] of records) {
      const label = `${spec.label}: ${fields[spec.keyField]}`;
      const id = await findIdByField(trx, spec, spec.keyField, fields[spec.keyField] ?? "");
      const current = id === undefined ? undefined : await findEntry(trx, spec, id);
      if (!current) {
        await createIn(trx, spec, { fields, hidden: false }, IMPORT_AUTHOR);
        report.created.push(label);
      } else if (sameFields(current.fields, fields)) {
        report.unchanged += 1;
      } else {
        const keepHidden = (entry: typeof current) => ({ fields, hidden: entry.hidden });
        await saveIn(trx, spec, current.id, current.version, keepHidden, IMPORT_AUTHOR);
        report.updated.push(label);
      }
    }
    const current = await readStoredFacts(trx);
    if (SITE_FACT_KEYS.every((key) => current.facts[key] === facts[key])) {
      report.unchanged += 1;
    } else {
      await saveFactsIn(trx, current.version, facts, IMPORT_AUTHOR);
      report.updated.push(SITE_FACTS_LABEL);
    }
    if (report.created.length + report.updated.length > 0) {
      await recordAudit(trx, {
        userId: null,
        actor: IMPORT_AUTHOR.recordedAs,
        action: "content-imported",
        target: contentDir,
        detail: { created: report.created, updated: report.updated },
      });
    }
  });
  return report;
}

/** How the content screens write a moment and a record's name. */
import type { EntryFields, ListSpec } from "../../../shared/admin/content.ts";

const MOMENT = new Intl.DateTimeFormat("en-GB", { dateStyle: "medium", timeStyle: "short" });

export function formatMoment(iso: string): string {
  return MOMENT.format(new Date(iso));
}

export function titleOf(spec: ListSpec, fields: EntryFields): string {
  return fields[spec.titleField] || `Untitled ${spec.singular}`;
}

/** A line under the title in a list: a team member's job, an item's description. */
export function subtitleOf(spec: ListSpec, fields: EntryFields): string {
  const field = spec.fields.find((candidate) => candidate.name !== spec.titleField);
  return field ? (fields[field.name] ?? "") : "";
}

/** "capability" → "a capability". */
export function withArticle(noun: string): string {
  return /^[aeiou]/i.test(noun) ? `an ${noun}` : `a ${noun}`;
}

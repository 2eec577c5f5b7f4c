/**
 * The audit search as the address bar keeps it (dates as the owner picked
 * them) and as the server takes it (instants: a day starts at midnight in the
 * owner's own time zone, and the end date's whole day is included).
 */
import { z } from "zod";
import { auditQuerySchema } from "../../../shared/admin/audit-log.ts";
import { type Read, read } from "../../api/client.ts";

export interface AuditFilters {
  q: string;
  action: string;
  from: string;
  to: string;
  page: number;
}

export const FILTER_KEYS = ["q", "action", "from", "to"] as const;

/**
 * The search form as it goes in the address: each part as typed, trimmed.
 * It is checked there (auditRequest), so a linked or hand-edited search shows
 * the same reasons by its fields as one just submitted.
 */
export const auditSearchSchema = z.object({
  q: z.string().trim(),
  action: z.string().trim(),
  from: z.string().trim(),
  to: z.string().trim(),
});

export function filtersFrom(params: URLSearchParams): AuditFilters {
  const page = Number(params.get("page"));
  return {
    q: params.get("q") ?? "",
    action: params.get("action") ?? "",
    from: params.get("from") ?? "",
    to: params.get("to") ?? "",
    page: Number.isInteger(page) && page > 0 ? page : 1,
  };
}

function localMidnight(date: string, plusDays = 0): string | undefined {
  const moment = new Date(`${date}T00:00:00`);
  if (Number.isNaN(moment.getTime())) return undefined;
  moment.setDate(moment.getDate() + plusDays);
  return moment.toISOString();
}

/** The read for these filters, or the reason per field they cannot be asked. */
export function auditRequest(
  filters: AuditFilters,
):
  | { read: Read<"audit.search">; fields?: never }
  | { read?: never; fields: Record<string, string> } {
  const query = {
    q: filters.q || undefined,
    action: filters.action || undefined,
    from: filters.from ? localMidnight(filters.from) : undefined,
    to: filters.to ? localMidnight(filters.to, 1) : undefined,
    page: filters.page,
  };
  const parsed = auditQuerySchema.safeParse(query);
  if (!parsed.success) {
    const fields: Record<string, string> = {};
    for (const issue of parsed.error.issues) fields[String(issue.path[0])] ??= issue.message;
    return { fields };
  }
  return { read: read("audit.search", { query }) };
}

/** "role-changed" reads "Role changed". */
export function actionLabel(action: string): string {
  const words = action.replace(/-/g, " ");
  return words.charAt(0).toUpperCase() + words.slice(1);
}

/** An entry's particulars in a few words: "editor → viewer", or "key: value" pairs. */
export function describeDetail(detail: Record<string, unknown> | null): string {
  if (!detail) return "";
  const moved = "from" in detail && "to" in detail;
  const parts = moved ? [`${String(detail.from)} → ${String(detail.to)}`] : [];
  for (const [key, value] of Object.entries(detail)) {
    if (moved && (key === "from" || key === "to")) continue;
    parts.push(`${key}: ${typeof value === "object" ? JSON.stringify(value) : String(value)}`);
  }
  return parts.join(" · ");
}

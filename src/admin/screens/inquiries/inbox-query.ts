/**
 * The inbox's filter and page as the address bar keeps them, so a reload,
 * the back button or a shared link shows the same list. A value the server
 * would refuse (an edited address) is dropped rather than shown as an error.
 */
import { z } from "zod";
import {
  type InquiryFilter,
  inquiryFilterSchema,
  inquiryListQuerySchema,
} from "../../../shared/admin/inquiries.ts";

export interface InboxQuery extends InquiryFilter {
  page: number;
}

function valid<T>(schema: z.ZodType<T>, value: string | null): T | undefined {
  const parsed = schema.safeParse(value ?? undefined);
  return parsed.success ? parsed.data : undefined;
}

export function inboxQueryFrom(params: URLSearchParams): InboxQuery {
  const { shape } = inquiryFilterSchema;
  return {
    type: valid(shape.type, params.get("type")),
    status: valid(shape.status, params.get("status")),
    q: valid(shape.q, params.get("q")) || undefined,
    page: valid(inquiryListQuerySchema.shape.page, params.get("page")) ?? 1,
  };
}

/** The address bar's form of a query: only the parts that are set, page 1 left out. */
export function inboxParams({ page, ...filter }: InboxQuery): Record<string, string> {
  const params: Record<string, string> = {};
  for (const [key, value] of Object.entries(filter)) if (value) params[key] = value;
  if (page > 1) params.page = String(page);
  return params;
}

/** The filter alone (what the export takes). */
export function filterOf({ page: _page, ...filter }: InboxQuery): InquiryFilter {
  return filter;
}

/** The filter form's fields as it holds them: "" for any type, any status, no words. */
export type InboxFilterForm = Record<keyof InquiryFilter, string>;

export function filterForm(filter: InquiryFilter): InboxFilterForm {
  return { type: filter.type ?? "", status: filter.status ?? "", q: filter.q ?? "" };
}

/** The form mapped to the filter (an empty field asks for nothing) and checked as the server checks it. */
export const inboxFilterFormSchema = z
  .object({ type: z.string(), status: z.string(), q: z.string() })
  .transform((form) => Object.fromEntries(Object.entries(form).filter(([, value]) => value !== "")))
  .pipe(inquiryFilterSchema);

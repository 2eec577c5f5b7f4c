/**
 * The inbox's filter: a type (those on offer now, then any an old inquiry
 * carries), a status (each with how many it holds) and
 * words to search for. A choice in a list applies at once; the words apply
 * when searched for, so the list does not jump while they are typed.
 */
import { zodResolver } from "@hookform/resolvers/zod";
import { useForm } from "react-hook-form";
import {
  INQUIRY_STATUSES,
  type InquiryFilter,
  SEARCH_MAX,
  STATUS_LABELS,
  type StatusCounts,
} from "../../../shared/admin/inquiries.ts";
import { useResetOnChange } from "../../../web/hooks/use-reset-on-change.ts";
import { filterForm, type InboxFilterForm, inboxFilterFormSchema } from "./inbox-query.ts";

interface InboxFiltersProps {
  filter: InquiryFilter;
  counts: StatusCounts | undefined;
  /** The types on offer now, then any other found on stored inquiries (the list's answer). */
  types: readonly string[] | undefined;
  onApply(filter: InquiryFilter): void;
}

const countOf = (counts: StatusCounts | undefined, status: keyof StatusCounts) =>
  counts ? ` (${counts[status]})` : "";

export function InboxFilters({ filter, counts, types, onApply }: InboxFiltersProps) {
  const {
    register,
    handleSubmit,
    reset,
    setFocus,
    formState: { errors },
  } = useForm<InboxFilterForm, unknown, InquiryFilter>({
    resolver: zodResolver(inboxFilterFormSchema),
    defaultValues: filterForm(filter),
  });
  // The address changed (a choice applied, back, clear): the form shows it. The form stays
  // mounted, so a keyboard user moving through a list's options keeps the focus there.
  useResetOnChange(JSON.stringify(filter), () => reset(filterForm(filter)));
  const apply = handleSubmit(onApply);
  const total = counts ? Object.values(counts).reduce((sum, count) => sum + count, 0) : undefined;
  const filtered = Boolean(filter.type || filter.status || filter.q);
  // The chosen type stays a choice while the list loads, and when no inquiry has it.
  const typeChoices = [...new Set([...(types ?? []), ...(filter.type ? [filter.type] : [])])];
  const wordsError = errors.q?.message;

  return (
    <search aria-label="Filter inquiries">
      <form className="inbox-filters" onSubmit={apply}>
        <div className="field">
          <label htmlFor="inbox-type">Type</label>
          <select id="inbox-type" {...register("type", { onChange: apply })}>
            <option value="">All types</option>
            {typeChoices.map((type) => (
              <option key={type} value={type}>
                {type}
              </option>
            ))}
          </select>
        </div>
        <div className="field">
          <label htmlFor="inbox-status">Status</label>
          <select id="inbox-status" {...register("status", { onChange: apply })}>
            <option value="">All statuses{total === undefined ? "" : ` (${total})`}</option>
            {INQUIRY_STATUSES.map((status) => (
              <option key={status} value={status}>
                {STATUS_LABELS[status]}
                {countOf(counts, status)}
              </option>
            ))}
          </select>
        </div>
        <div className="field inbox-search">
          <div className="inbox-search-label">
            <label htmlFor="inbox-q">Search</label>
            <span className="field-hint" id="inbox-q-hint">
              names, companies, e-mails and comments
            </span>
          </div>
          <div className="inbox-search-row">
            <input
              id="inbox-q"
              type="search"
              maxLength={SEARCH_MAX}
              aria-describedby={wordsError ? "inbox-q-hint inbox-q-error" : "inbox-q-hint"}
              {...(wordsError ? { "aria-invalid": true } : {})}
              {...register("q")}
            />
            <button type="submit" className="button">
              Search
            </button>
          </div>
          {wordsError ? (
            <p className="field-error" id="inbox-q-error">
              {wordsError}
            </p>
          ) : null}
        </div>
        {filtered ? (
          <button
            type="button"
            className="button button-quiet"
            onClick={() => {
              onApply({});
              // The button goes with the filter: the search box keeps the keyboard's place.
              setFocus("q");
            }}
          >
            Clear filters
          </button>
        ) : null}
      </form>
    </search>
  );
}

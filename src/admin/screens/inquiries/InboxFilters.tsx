/**
 * The inbox's filter: a type (those on offer now, then any an old inquiry
 * carries), a status (each with how many it holds) and
 * words to search for. A choice in a list applies at once; the words apply
 * when searched for, so the list does not jump while they are typed.
 */
import { type FormEvent, useRef, useState } from "react";
import {
  INQUIRY_STATUSES,
  type InquiryFilter,
  inquiryFilterSchema,
  SEARCH_MAX,
  STATUS_LABELS,
  type StatusCounts,
} from "../../../shared/admin/inquiries.ts";
import { useResetOnChange } from "../../../web/hooks/useResetOnChange.ts";

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
  const apply = (form: HTMLFormElement) => {
    const data = Object.fromEntries([...new FormData(form)].filter(([, value]) => value !== ""));
    const parsed = inquiryFilterSchema.safeParse(data);
    if (parsed.success) onApply(parsed.data);
  };
  const submit = (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    apply(event.currentTarget);
  };
  // The words as typed, until searched for; the address's words again after back or clear.
  const [words, setWords] = useState(filter.q ?? "");
  useResetOnChange(filter.q, () => setWords(filter.q ?? ""));
  const wordsInput = useRef<HTMLInputElement>(null);
  const applyChoice = (event: { currentTarget: HTMLSelectElement }) => {
    if (event.currentTarget.form) apply(event.currentTarget.form);
  };
  const total = counts ? Object.values(counts).reduce((sum, count) => sum + count, 0) : undefined;
  const filtered = Boolean(filter.type || filter.status || filter.q);
  // The chosen type stays a choice while the list loads, and when no inquiry has it.
  const typeChoices = [...new Set([...(types ?? []), ...(filter.type ? [filter.type] : [])])];

  return (
    <search aria-label="Filter inquiries">
      <form className="inbox-filters" onSubmit={submit}>
        <div className="field">
          <label htmlFor="inbox-type">Type</label>
          <select id="inbox-type" name="type" value={filter.type ?? ""} onChange={applyChoice}>
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
          <select
            id="inbox-status"
            name="status"
            value={filter.status ?? ""}
            onChange={applyChoice}
          >
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
              name="q"
              type="search"
              maxLength={SEARCH_MAX}
              ref={wordsInput}
              value={words}
              onChange={(event) => setWords(event.currentTarget.value)}
              aria-describedby="inbox-q-hint"
            />
            <button type="submit" className="button">
              Search
            </button>
          </div>
        </div>
        {filtered ? (
          <button
            type="button"
            className="button button-quiet"
            onClick={() => {
              onApply({});
              // The button goes with the filter: the search box keeps the keyboard's place.
              wordsInput.current?.focus();
            }}
          >
            Clear filters
          </button>
        ) : null}
      </form>
    </search>
  );
}

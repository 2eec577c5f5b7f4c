/**
 * The audit search: text, action and a date range. Submitting puts the
 * filters in the address (so a search can be linked and the Back button
 * works) and goes back to the first page.
 */
import { type FormEvent, useId } from "react";
import { type AuditFilters, actionLabel, FILTER_KEYS } from "./audit-query.ts";

interface AuditFiltersFormProps {
  filters: AuditFilters;
  actions: string[];
  fields: Record<string, string>;
  onSearch: (filters: Omit<AuditFilters, "page">) => void;
}

export function AuditFiltersForm({ filters, actions, fields, onSearch }: AuditFiltersFormProps) {
  const id = useId();
  const ids = Object.fromEntries(FILTER_KEYS.map((key) => [key, `${id}-${key}`])) as Record<
    (typeof FILTER_KEYS)[number],
    string
  >;

  function submit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    const data = new FormData(event.currentTarget);
    const value = (key: string) => String(data.get(key) ?? "").trim();
    onSearch({ q: value("q"), action: value("action"), from: value("from"), to: value("to") });
  }

  const errorOf = (key: (typeof FILTER_KEYS)[number]) =>
    fields[key] ? (
      <p className="field-error" id={`${ids[key]}-error`}>
        {fields[key]}
      </p>
    ) : null;
  const invalid = (key: (typeof FILTER_KEYS)[number]) =>
    fields[key] ? { "aria-invalid": true, "aria-describedby": `${ids[key]}-error` } : {};

  // Keyed by the filters, so Back and Forward show the search they lead to.
  return (
    <search aria-label="Search the audit log">
      <form
        key={JSON.stringify(filters)}
        className="audit-filters panel"
        onSubmit={submit}
        noValidate
      >
        <div className="field audit-text">
          <label htmlFor={ids.q}>Search</label>
          <input
            id={ids.q}
            name="q"
            type="search"
            defaultValue={filters.q}
            maxLength={200}
            aria-describedby={`${ids.q}-hint`}
          />
          <p className="field-hint" id={`${ids.q}-hint`}>
            Who, what or the target, e.g. an e-mail address.
          </p>
        </div>
        <div className="field">
          <label htmlFor={ids.action}>Action</label>
          <select id={ids.action} name="action" defaultValue={filters.action}>
            <option value="">Every action</option>
            {actions.map((action) => (
              <option key={action} value={action}>
                {actionLabel(action)}
              </option>
            ))}
          </select>
        </div>
        <div className="field">
          <label htmlFor={ids.from}>From</label>
          <input
            id={ids.from}
            name="from"
            type="date"
            defaultValue={filters.from}
            {...invalid("from")}
          />
          {errorOf("from")}
        </div>
        <div className="field">
          <label htmlFor={ids.to}>To</label>
          <input id={ids.to} name="to" type="date" defaultValue={filters.to} {...invalid("to")} />
          {errorOf("to")}
        </div>
        <div className="audit-filter-actions">
          <button type="submit" className="button button-primary">
            Search
          </button>
          <button
            type="button"
            className="button button-quiet"
            onClick={() => onSearch({ q: "", action: "", from: "", to: "" })}
          >
            Clear
          </button>
        </div>
      </form>
    </search>
  );
}

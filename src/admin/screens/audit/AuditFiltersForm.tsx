/**
 * The audit search: text, action and a date range. Submitting puts the
 * filters in the address (so a search can be linked and the Back button
 * works) and goes back to the first page. The screen keys it by the
 * filters, so Back and Forward show the search they lead to.
 */
import { zodResolver } from "@hookform/resolvers/zod";
import { useId } from "react";
import { useForm } from "react-hook-form";
import { type AuditFilters, actionLabel, auditSearchSchema, FILTER_KEYS } from "./audit-query.ts";

type AuditSearch = Omit<AuditFilters, "page">;

interface AuditFiltersFormProps {
  filters: AuditFilters;
  actions: string[];
  fields: Record<string, string>;
  onSearch: (filters: AuditSearch) => void;
}

export function AuditFiltersForm({ filters, actions, fields, onSearch }: AuditFiltersFormProps) {
  const id = useId();
  const ids = Object.fromEntries(FILTER_KEYS.map((key) => [key, `${id}-${key}`])) as Record<
    (typeof FILTER_KEYS)[number],
    string
  >;

  const { register, handleSubmit } = useForm<AuditSearch>({
    resolver: zodResolver(auditSearchSchema),
    defaultValues: { q: filters.q, action: filters.action, from: filters.from, to: filters.to },
  });

  const errorOf = (key: (typeof FILTER_KEYS)[number]) =>
    fields[key] ? (
      <p className="field-error" id={`${ids[key]}-error`}>
        {fields[key]}
      </p>
    ) : null;
  const invalid = (key: (typeof FILTER_KEYS)[number]) =>
    fields[key] ? { "aria-invalid": true, "aria-describedby": `${ids[key]}-error` } : {};

  return (
    <search aria-label="Search the audit log">
      <form className="audit-filters panel" onSubmit={handleSubmit(onSearch)} noValidate>
        <div className="field audit-text">
          <label htmlFor={ids.q}>Search</label>
          <input
            id={ids.q}
            type="search"
            maxLength={200}
            aria-describedby={`${ids.q}-hint`}
            {...register("q")}
          />
          <p className="field-hint" id={`${ids.q}-hint`}>
            Who, what or the target, e.g. an e-mail address.
          </p>
        </div>
        <div className="field">
          <label htmlFor={ids.action}>Action</label>
          <select id={ids.action} {...register("action")}>
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
          <input id={ids.from} type="date" {...invalid("from")} {...register("from")} />
          {errorOf("from")}
        </div>
        <div className="field">
          <label htmlFor={ids.to}>To</label>
          <input id={ids.to} type="date" {...invalid("to")} {...register("to")} />
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

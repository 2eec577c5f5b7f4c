/**
 * A list's filter: an address (or part of one) to look for and one choice
 * (a status, a reason). Searching puts both in the address bar's query
 * (filterQuery), so the list's own address says what narrows it.
 */
import type { FormEvent } from "react";
import { Field } from "./Field.tsx";
import { filterQuery } from "./filter-query.ts";

interface AddressFilterProps<T extends string> {
  /** The address text searched for now. */
  q: string;
  choice: {
    id: string;
    label: string;
    name: string;
    /** The choice in force now. */
    value: T;
    options: readonly T[];
    labels: Record<T, string>;
  };
  /** Changes with the address bar's query: the form then starts afresh from it. */
  formKey: string;
  onSearch(query: URLSearchParams): void;
}

export function AddressFilter<T extends string>({
  q,
  choice,
  formKey,
  onSearch,
}: AddressFilterProps<T>) {
  function search(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    onSearch(filterQuery(event.currentTarget));
  }
  return (
    <search>
      <form className="toolbar address-filter" onSubmit={search} key={formKey}>
        <Field label="Address" name="q" type="search" defaultValue={q} maxLength={254} />
        <div className="field">
          <label htmlFor={choice.id}>{choice.label}</label>
          <select id={choice.id} name={choice.name} defaultValue={choice.value}>
            {choice.options.map((value) => (
              <option key={value} value={value}>
                {choice.labels[value]}
              </option>
            ))}
          </select>
        </div>
        <button type="submit" className="button button-primary">
          Search
        </button>
      </form>
    </search>
  );
}

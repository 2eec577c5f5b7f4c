/**
 * A list's filter: an address (or part of one) to look for and one choice
 * (a status, a reason). Searching puts both in the address bar's query
 * (filterQuery), so the list's own address says what narrows it. The screen
 * keys it by that query, so Back and Forward start it afresh from there.
 */
import { zodResolver } from "@hookform/resolvers/zod";
import { useForm } from "react-hook-form";
import type { z } from "zod";
import { Field } from "./Field.tsx";
import { FieldFrame } from "./FieldFrame.tsx";
import { filterQuery } from "./filter-query.ts";

type FilterValues = Record<string, string>;

interface AddressFilterProps<T extends string> {
  /** The list's filter as the server checks its query: the words and the field of a refusal. */
  schema: z.ZodType<FilterValues, Partial<FilterValues>>;
  /** The address text searched for now. */
  q: string;
  choice: {
    label: string;
    name: string;
    /** The choice in force now. */
    value: T;
    options: readonly T[];
    labels: Record<T, string>;
  };
  onSearch(query: URLSearchParams): void;
  /** The search field's label, where it finds more than addresses. */
  searchLabel?: string;
}

export function AddressFilter<T extends string>({
  schema,
  q,
  choice,
  onSearch,
  searchLabel = "Address",
}: AddressFilterProps<T>) {
  const {
    register,
    handleSubmit,
    formState: { errors },
  } = useForm<Partial<FilterValues>, unknown, FilterValues>({
    resolver: zodResolver(schema),
    defaultValues: { q, [choice.name]: choice.value },
  });
  return (
    <search>
      <form
        className="toolbar address-filter"
        onSubmit={handleSubmit((values) => onSearch(filterQuery(values)))}
      >
        <Field
          label={searchLabel}
          type="search"
          maxLength={254}
          error={errors.q?.message}
          {...register("q")}
        />
        <FieldFrame label={choice.label}>
          {(control) => (
            <select {...control} {...register(choice.name)}>
              {choice.options.map((value) => (
                <option key={value} value={value}>
                  {choice.labels[value]}
                </option>
              ))}
            </select>
          )}
        </FieldFrame>
        <button type="submit" className="button button-primary">
          Search
        </button>
      </form>
    </search>
  );
}

/**
 * The range the figures cover: a named one (radio buttons styled as one
 * segmented control, so the keyboard moves through them with the arrow keys
 * and a screen reader hears one group with its choice), or a custom one
 * from two days. The choice lives in the address, so a range can be
 * bookmarked, shared and reached from the weekly digest.
 */
import { zodResolver } from "@hookform/resolvers/zod";
import { useId, useState } from "react";
import { useForm } from "react-hook-form";
import { z } from "zod";
import {
  daySchema,
  type Period,
  RANGE_LABELS,
  RANGES,
  type RangeName,
} from "../../../shared/admin/audience.ts";
import { useResetOnChange } from "../../../web/hooks/use-reset-on-change.ts";
import { FieldFrame } from "../../components/FieldFrame.tsx";

export interface RangeChoice {
  range: RangeName;
  from?: string | undefined;
  to?: string | undefined;
}

/** A custom range's days as the server takes them; the order and length are its to judge. */
const customDaysSchema = z.object({ from: daySchema, to: daySchema });
type CustomDays = z.infer<typeof customDaysSchema>;

const SHORT: Record<RangeName, string> = {
  today: "Today",
  "7d": "7 days",
  "30d": "30 days",
  "12m": "12 months",
  custom: "Custom",
};

export function RangePicker({
  choice,
  period,
  onChoose,
}: {
  choice: RangeChoice;
  /** The period shown now: a custom range starts from it. */
  period: Period | undefined;
  onChoose: (choice: RangeChoice) => void;
}) {
  const id = useId();
  // The choice shows at once: the address changes in a transition, and a
  // radio bound to it alone would spring back until that transition ends.
  const [shown, setShown] = useState<RangeName>(choice.range);
  const {
    register,
    handleSubmit,
    getValues,
    setValue,
    watch,
    formState: { errors },
  } = useForm<CustomDays>({
    resolver: zodResolver(customDaysSchema),
    defaultValues: { from: choice.from ?? period?.from ?? "", to: choice.to ?? period?.to ?? "" },
  });
  const [from, to] = watch(["from", "to"]);
  const custom = shown === "custom";

  // The address changed another way (back, forward, a link): follow it. The
  // picker stays mounted, so a keyboard user moving through the ranges keeps focus.
  useResetOnChange(JSON.stringify([choice.range, choice.from, choice.to]), () => {
    setShown(choice.range);
    if (choice.from) setValue("from", choice.from);
    if (choice.to) setValue("to", choice.to);
  });

  function pick(range: RangeName) {
    setShown(range);
    if (range === "custom") {
      setValue("from", getValues("from") || period?.from || "");
      setValue("to", getValues("to") || period?.to || "");
      return;
    }
    onChoose({ range });
  }

  const show = handleSubmit((days) => onChoose({ range: "custom", ...days }));

  return (
    <div className="range">
      <fieldset className="range-choices">
        <legend className="visually-hidden">Range</legend>
        {RANGES.map((range) => (
          <label key={range} className="range-choice" title={RANGE_LABELS[range]}>
            <input
              type="radio"
              name={`${id}-range`}
              value={range}
              checked={shown === range}
              onChange={() => pick(range)}
            />
            <span>{SHORT[range]}</span>
          </label>
        ))}
      </fieldset>
      {custom ? (
        <form className="range-custom" onSubmit={show} aria-label="Custom range">
          <FieldFrame label="From" error={errors.from?.message}>
            {(control) => (
              <input
                {...control}
                type="date"
                required
                max={to || undefined}
                {...register("from")}
              />
            )}
          </FieldFrame>
          <FieldFrame label="To" error={errors.to?.message}>
            {(control) => (
              <input
                {...control}
                type="date"
                required
                min={from || undefined}
                {...register("to")}
              />
            )}
          </FieldFrame>
          <button type="submit" className="button button-primary">
            Show
          </button>
        </form>
      ) : null}
    </div>
  );
}

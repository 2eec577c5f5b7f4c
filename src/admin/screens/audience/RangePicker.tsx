/**
 * The range the figures cover: a named one (radio buttons styled as one
 * segmented control, so the keyboard moves through them with the arrow keys
 * and a screen reader hears one group with its choice), or a custom one
 * from two days. The choice lives in the address, so a range can be
 * bookmarked, shared and reached from the weekly digest.
 */
import { type FormEvent, useId, useState } from "react";
import {
  type Period,
  RANGE_LABELS,
  RANGES,
  type RangeName,
} from "../../../shared/admin/audience.ts";
import { useResetOnChange } from "../../../web/hooks/useResetOnChange.ts";

export interface RangeChoice {
  range: RangeName;
  from?: string | undefined;
  to?: string | undefined;
}

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
  const [from, setFrom] = useState(choice.from ?? period?.from ?? "");
  const [to, setTo] = useState(choice.to ?? period?.to ?? "");
  const custom = shown === "custom";

  // The address changed another way (back, forward, a link): follow it. The
  // picker stays mounted, so a keyboard user moving through the ranges keeps focus.
  useResetOnChange(JSON.stringify([choice.range, choice.from, choice.to]), () => {
    setShown(choice.range);
    if (choice.from) setFrom(choice.from);
    if (choice.to) setTo(choice.to);
  });

  function pick(range: RangeName) {
    setShown(range);
    if (range === "custom") {
      setFrom((day) => day || period?.from || "");
      setTo((day) => day || period?.to || "");
      return;
    }
    onChoose({ range });
  }

  function show(event: FormEvent) {
    event.preventDefault();
    onChoose({ range: "custom", from, to });
  }

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
          <div className="field">
            <label htmlFor={`${id}-from`}>From</label>
            <input
              id={`${id}-from`}
              type="date"
              required
              value={from}
              max={to || undefined}
              onChange={(event) => setFrom(event.target.value)}
            />
          </div>
          <div className="field">
            <label htmlFor={`${id}-to`}>To</label>
            <input
              id={`${id}-to`}
              type="date"
              required
              value={to}
              min={from || undefined}
              onChange={(event) => setTo(event.target.value)}
            />
          </div>
          <button type="submit" className="button button-primary">
            Show
          </button>
        </form>
      ) : null}
    </div>
  );
}

/**
 * The send panel's "Who gets it": every active subscriber, or a segment by
 * tags (any or all of those ticked), with the exact number it reaches now,
 * counted by the server as the send will count it.
 */
import type { UseFormReturn } from "react-hook-form";
import type { TagCount } from "../../../shared/admin/subscribers.ts";
import type { RecipientsValues } from "./recipients.ts";

interface RecipientsChoiceProps {
  form: UseFormReturn<RecipientsValues>;
  /** The tags active subscribers have; undefined while they load. */
  tags: TagCount[] | undefined;
  /** How many it reaches, or why that is not known yet, as a sentence. */
  reach: string;
}

export function RecipientsChoice({ form, tags, reach }: RecipientsChoiceProps) {
  const {
    register,
    watch,
    formState: { errors },
  } = form;
  const noTags = tags !== undefined && tags.length === 0;

  return (
    <fieldset className="recipients-choice">
      <legend>Who gets it</legend>
      <label className="recipients-option">
        <input type="radio" value="everyone" {...register("to")} />
        <span>Every active subscriber</span>
      </label>
      <label className="recipients-option">
        <input type="radio" value="segment" disabled={noTags} {...register("to")} />
        <span>Subscribers with some tags</span>
      </label>
      {noTags ? (
        <p className="field-hint">
          No active subscriber has a tag yet. Give tags on a subscriber’s page, or import a file
          that has them.
        </p>
      ) : null}
      {watch("to") === "segment" && tags ? (
        <div className="recipients-segment">
          <fieldset className="recipients-tags" aria-describedby="recipients-tags-error">
            <legend>Tags</legend>
            {tags.map(({ tag, active }) => (
              <label key={tag} className="recipients-option">
                <input type="checkbox" value={tag} {...register("tags")} />
                <span>
                  {tag}{" "}
                  <span className="recipients-tag-count">({active.toLocaleString("en-GB")})</span>
                </span>
              </label>
            ))}
            {errors.tags ? (
              <p className="field-error" id="recipients-tags-error">
                {errors.tags.message}
              </p>
            ) : null}
          </fieldset>
          <fieldset className="recipients-match">
            <legend>Who has</legend>
            <label className="recipients-option">
              <input type="radio" value="any" {...register("match")} />
              <span>Any of these tags</span>
            </label>
            <label className="recipients-option">
              <input type="radio" value="all" {...register("match")} />
              <span>All of these tags</span>
            </label>
          </fieldset>
        </div>
      ) : null}
      <p className="recipients-reach" aria-live="polite">
        {reach}
      </p>
    </fieldset>
  );
}

/**
 * The send panel's "Who gets it": every active subscriber, or a segment by
 * the tags the firm gave and the topics subscribers chose (any or all of
 * those ticked), with the exact number it reaches now, counted by the
 * server as the send will count it.
 */
import type { UseFormReturn } from "react-hook-form";
import type { TagCount, TopicCount } from "../../../shared/admin/subscribers.ts";
import type { RecipientsValues } from "./recipients.ts";

interface RecipientsChoiceProps {
  form: UseFormReturn<RecipientsValues>;
  /** The tags active subscribers have; undefined while they load. */
  tags: TagCount[] | undefined;
  /** The topics the subscribe page offers; undefined while they load. */
  topics: TopicCount[] | undefined;
  /** How many it reaches, or why that is not known yet, as a sentence. */
  reach: string;
}

const count = (active: number) => (
  <span className="recipients-tag-count">({active.toLocaleString("en-GB")})</span>
);

export function RecipientsChoice({ form, tags, topics, reach }: RecipientsChoiceProps) {
  const {
    register,
    watch,
    formState: { errors },
  } = form;
  const loaded = tags !== undefined && topics !== undefined;
  const nothingToChoose = loaded && tags.length === 0 && topics.length === 0;

  return (
    <fieldset className="recipients-choice">
      <legend>Who gets it</legend>
      <label className="recipients-option">
        <input type="radio" value="everyone" {...register("to")} />
        <span>Every active subscriber</span>
      </label>
      <label className="recipients-option">
        <input type="radio" value="segment" disabled={nothingToChoose} {...register("to")} />
        <span>Subscribers with some tags or topics</span>
      </label>
      {nothingToChoose ? (
        <p className="field-hint">
          No active subscriber has a tag, and the subscribe page offers no topic yet. Give tags on a
          subscriber’s page or import a file that has them, or add topics under Subscribers.
        </p>
      ) : null}
      {watch("to") === "segment" && loaded ? (
        <div className="recipients-segment">
          {tags.length > 0 ? (
            <fieldset className="recipients-tags">
              <legend>Tags</legend>
              {tags.map(({ tag, active }) => (
                <label key={tag} className="recipients-option">
                  <input type="checkbox" value={tag} {...register("tags")} />
                  <span>
                    {tag} {count(active)}
                  </span>
                </label>
              ))}
            </fieldset>
          ) : null}
          {topics.length > 0 ? (
            <fieldset className="recipients-tags">
              <legend>Topics they chose</legend>
              {topics.map(({ id, name, active }) => (
                <label key={id} className="recipients-option">
                  <input type="checkbox" value={String(id)} {...register("topics")} />
                  <span>
                    {name} {count(active)}
                  </span>
                </label>
              ))}
            </fieldset>
          ) : null}
          {errors.tags ? (
            <p className="field-error" id="recipients-tags-error">
              {errors.tags.message}
            </p>
          ) : null}
          <fieldset className="recipients-match">
            <legend>Who has</legend>
            <label className="recipients-option">
              <input type="radio" value="any" {...register("match")} />
              <span>Any of these</span>
            </label>
            <label className="recipients-option">
              <input type="radio" value="all" {...register("match")} />
              <span>All of these</span>
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

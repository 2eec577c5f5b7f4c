/**
 * "Schedule for": a day and time in the editor's own time zone; the issue
 * waits for it, and then goes to whom the send panel's choice names.
 */
import { zodResolver } from "@hookform/resolvers/zod";
import { useState } from "react";
import { useForm } from "react-hook-form";
import type { IssueDetail, IssueSend, Segment } from "../../../shared/admin/newsletter.ts";
import { api } from "../../api/client.ts";
import { showRefusal } from "../../api/refusal.ts";
import { Field } from "../../components/Field.tsx";
import { Notice } from "../../components/Notice.tsx";
import {
  isoInstant,
  localNow,
  type ScheduleValues,
  scheduleSchema,
  timeZoneName,
} from "./schedule.ts";

interface ScheduleFormProps {
  /** The issue as saved, saving the draft first if it has changes; null when that failed. */
  saveFirst(): Promise<IssueDetail | null>;
  /** Who it goes to, as the send panel's choice says; false when that choice is not complete. */
  chosenSegment(): Promise<Segment | undefined | false>;
  onScheduled(issue: IssueDetail): void;
}

export function ScheduleForm({ saveFirst, chosenSegment, onScheduled }: ScheduleFormProps) {
  const [failure, setFailure] = useState<string | null>(null);
  const {
    register,
    handleSubmit,
    setError,
    formState: { errors, isSubmitting },
  } = useForm<ScheduleValues>({ resolver: zodResolver(scheduleSchema), defaultValues: { at: "" } });

  const submit = handleSubmit(async ({ at }) => {
    setFailure(null);
    const segment = await chosenSegment();
    if (segment === false) return;
    const saved = await saveFirst();
    if (!saved) return;
    try {
      const body: IssueSend = { at: isoInstant(at), ...(segment ? { segment } : {}) };
      onScheduled(await api.call("newsletter.send", { params: { id: saved.id }, body }));
    } catch (error) {
      setFailure(showRefusal(error, setError, ["at"]));
    }
  });

  return (
    <form className="schedule-form" onSubmit={submit} noValidate>
      <Field
        label="Schedule for"
        type="datetime-local"
        min={localNow()}
        hint={`In your time zone, ${timeZoneName()}.`}
        error={errors.at?.message}
        {...register("at")}
      />
      <button className="button" type="submit" disabled={isSubmitting}>
        {isSubmitting ? "Scheduling…" : "Schedule"}
      </button>
      {failure ? <Notice tone="error">{failure}</Notice> : null}
    </form>
  );
}

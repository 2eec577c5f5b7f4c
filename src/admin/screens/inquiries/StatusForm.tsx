/** Moves an inquiry along: new, in progress, answered, closed, or spam. */
import { zodResolver } from "@hookform/resolvers/zod";
import { useForm } from "react-hook-form";
import {
  INQUIRY_STATUSES,
  STATUS_LABELS,
  type StatusChange,
  statusChangeSchema,
} from "../../../shared/admin/inquiries.ts";
import { api } from "../../api/client.ts";
import { FieldFrame } from "../../components/FieldFrame.tsx";
import type { HandlingFormProps } from "./handling.ts";
import { useOutcome } from "./use-outcome.tsx";

export function StatusForm({ inquiry, onSaved }: HandlingFormProps) {
  const { attempt, notice } = useOutcome();
  const {
    register,
    handleSubmit,
    reset,
    formState: { errors, isSubmitting },
  } = useForm<StatusChange>({
    resolver: zodResolver(statusChangeSchema),
    defaultValues: { status: inquiry.status },
  });

  const submit = handleSubmit(async (values) => {
    const saved = await attempt(
      () => api.call("inquiries.setStatus", { params: { id: inquiry.id }, body: values }),
      (result) => `Status set to ${STATUS_LABELS[result.status]}.`,
    );
    if (!saved) return;
    reset({ status: saved.status });
    onSaved(saved);
  });

  return (
    <form className="handling-form handling-form-inline" onSubmit={submit} noValidate>
      <FieldFrame label="Status" error={errors.status?.message}>
        {(control) => (
          <select {...control} {...register("status")}>
            {INQUIRY_STATUSES.map((status) => (
              <option key={status} value={status}>
                {STATUS_LABELS[status]}
              </option>
            ))}
          </select>
        )}
      </FieldFrame>
      <button className="button" type="submit" disabled={isSubmitting}>
        {isSubmitting ? "Saving…" : "Save status"}
      </button>
      {notice}
    </form>
  );
}

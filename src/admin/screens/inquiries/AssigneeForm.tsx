/** Gives an inquiry to one of the console's people, or to nobody. */
import { zodResolver } from "@hookform/resolvers/zod";
import { useForm } from "react-hook-form";
import { type Assignment, assignmentSchema, type Person } from "../../../shared/admin/inquiries.ts";
import { api } from "../../api/client.ts";
import { FieldFrame } from "../../components/FieldFrame.tsx";
import { personName } from "./format.ts";
import type { HandlingFormProps } from "./handling.ts";
import { useOutcome } from "./use-outcome.tsx";

/** A select's value is text: "" is nobody, anything else an account's id. */
const assigneeIdOf = (value: string) => (value === "" ? null : Number(value));

export function AssigneeForm({
  inquiry,
  people,
  onSaved,
}: HandlingFormProps & { people: Person[] }) {
  const { attempt, notice } = useOutcome();
  const {
    register,
    handleSubmit,
    reset,
    formState: { errors, isSubmitting },
  } = useForm<Assignment>({
    resolver: zodResolver(assignmentSchema),
    defaultValues: { assigneeId: inquiry.assignee?.id ?? null },
  });

  const submit = handleSubmit(async (values) => {
    const saved = await attempt(
      () => api.call("inquiries.assign", { params: { id: inquiry.id }, body: values }),
      (result) =>
        result.assignee ? `Assigned to ${personName(result.assignee)}.` : "Nobody has it now.",
    );
    if (!saved) return;
    reset({ assigneeId: saved.assignee?.id ?? null });
    onSaved(saved);
  });

  return (
    <form className="handling-form handling-form-inline" onSubmit={submit} noValidate>
      <FieldFrame label="Assigned to" error={errors.assigneeId?.message}>
        {(control) => (
          <select {...control} {...register("assigneeId", { setValueAs: assigneeIdOf })}>
            <option value="">Nobody</option>
            {people.map((person) => (
              <option key={person.id} value={person.id}>
                {personName(person)}
              </option>
            ))}
          </select>
        )}
      </FieldFrame>
      <button className="button" type="submit" disabled={isSubmitting}>
        {isSubmitting ? "Saving…" : "Save assignee"}
      </button>
      {notice}
    </form>
  );
}

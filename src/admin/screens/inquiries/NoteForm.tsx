/** Adds an internal note: seen in the console only, never by the visitor. */
import { zodResolver } from "@hookform/resolvers/zod";
import { useForm } from "react-hook-form";
import { type NewNote, NOTE_MAX, noteSchema } from "../../../shared/admin/inquiries.ts";
import { api } from "../../api/client.ts";
import { FieldFrame } from "../../components/FieldFrame.tsx";
import { RestoredNotice } from "../../forms/FormKeeping.tsx";
import { useKeptTyping } from "../../forms/use-kept-typing.tsx";
import type { HandlingFormProps } from "./handling.ts";
import { useOutcome } from "./use-outcome.tsx";

const NO_NOTE: NewNote = { body: "" };

export function NoteForm({ inquiry, onSaved }: HandlingFormProps) {
  const { attempt, notice } = useOutcome();
  const form = useForm<NewNote>({ resolver: zodResolver(noteSchema), defaultValues: NO_NOTE });
  const {
    register,
    handleSubmit,
    reset,
    formState: { errors, isSubmitting },
  } = form;
  const kept = useKeptTyping(form, `note:${inquiry.id}`);

  const submit = handleSubmit(async (values) => {
    const saved = await attempt(
      () => api.call("inquiries.addNote", { params: { id: inquiry.id }, body: values }),
      () => "Note added.",
    );
    if (!saved) return;
    reset(NO_NOTE);
    kept.saved(NO_NOTE);
    onSaved(saved);
  });

  return (
    <form className="handling-form" onSubmit={submit} noValidate>
      {kept.restoredAt ? <RestoredNotice at={kept.restoredAt} onDiscard={kept.discard} /> : null}
      <FieldFrame
        label="Add a note"
        hint={`Only people in the console see notes. Up to ${NOTE_MAX} characters.`}
        error={errors.body?.message}
      >
        {(control) => <textarea {...control} maxLength={NOTE_MAX} {...register("body")} />}
      </FieldFrame>
      <button className="button button-primary" type="submit" disabled={isSubmitting}>
        {isSubmitting ? "Adding…" : "Add note"}
      </button>
      {notice}
      {kept.leaveDialog}
    </form>
  );
}

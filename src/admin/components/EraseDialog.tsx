/**
 * Erasure asks once more, in the console's alert dialog: the person
 * types the address, which both the form and the server compare with the one
 * shown (shared/admin/erasure.ts). `erase` sends the request; a refusal shows
 * beside the field or above the form, and the dialog stays open.
 */
import { zodResolver } from "@hookform/resolvers/zod";
import { type ReactNode, useState } from "react";
import { useForm } from "react-hook-form";
import { type ConfirmAddress, confirmingAddress } from "../../shared/admin/erasure.ts";
import { showRefusal } from "../api/refusal.ts";
import { AlertDialog } from "./AlertDialog.tsx";
import { Field } from "./Field.tsx";
import { Notice } from "./Notice.tsx";

interface EraseDialogProps {
  open: boolean;
  title: string;
  /** The address being erased, shown and to be typed. */
  email: string;
  /** What goes, and what stays. */
  children: ReactNode;
  erase(values: ConfirmAddress): Promise<void>;
  onClose(): void;
}

export function EraseDialog({ open, title, email, children, erase, onClose }: EraseDialogProps) {
  const text = (
    <>
      <p className="confirm-dialog-target">{email}</p>
      {children}
    </>
  );
  return (
    <AlertDialog open={open} title={title} text={text} onClose={onClose}>
      <EraseForm email={email} erase={erase} onCancel={onClose} />
    </AlertDialog>
  );
}

function EraseForm({
  email,
  erase,
  onCancel,
}: Pick<EraseDialogProps, "email" | "erase"> & { onCancel(): void }) {
  const [failure, setFailure] = useState<string | null>(null);
  const {
    register,
    handleSubmit,
    setError,
    formState: { errors, isSubmitting },
  } = useForm<ConfirmAddress>({
    resolver: zodResolver(confirmingAddress(email)),
    defaultValues: { email: "" },
  });

  async function submit(values: ConfirmAddress) {
    setFailure(null);
    try {
      await erase(values);
    } catch (error) {
      setFailure(showRefusal(error, setError, ["email"]));
    }
  }

  return (
    <form onSubmit={handleSubmit(submit)} noValidate>
      {failure ? <Notice tone="error">{failure}</Notice> : null}
      <Field
        label="Type the address to confirm"
        autoComplete="off"
        spellCheck={false}
        error={errors.email?.message}
        {...register("email")}
      />
      <div className="dialog-actions">
        <button type="button" className="button" onClick={onCancel}>
          Cancel
        </button>
        <button type="submit" className="button button-danger" disabled={isSubmitting}>
          Erase for good
        </button>
      </div>
    </form>
  );
}

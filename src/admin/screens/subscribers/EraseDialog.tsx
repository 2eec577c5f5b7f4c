/**
 * Erasure asks once more, in a native <dialog> (the site's Modal): the person
 * types the address, which both the form and the server compare with the one
 * shown. After it, the list says what was erased.
 */
import { zodResolver } from "@hookform/resolvers/zod";
import { useId, useState } from "react";
import { useForm } from "react-hook-form";
import { useNavigate } from "react-router";
import {
  type EraseSubscriber,
  eraseSubscriberSchema,
  SUBSCRIBER_TEXTS,
  type SubscriberDetail,
  subscriberPath,
} from "../../../shared/admin/subscribers.ts";
import { Modal } from "../../../web/components/Modal.tsx";
import { api } from "../../api/client.ts";
import { showRefusal } from "../../api/refusal.ts";
import { Field } from "../../components/Field.tsx";
import { Notice } from "../../components/Notice.tsx";
import type { ListState } from "./SubscriberListScreen.tsx";

interface EraseDialogProps {
  open: boolean;
  subscriber: SubscriberDetail;
  onClose: () => void;
}

export function EraseDialog({ open, subscriber, onClose }: EraseDialogProps) {
  const titleId = useId();
  const textId = useId();
  return (
    <Modal
      open={open}
      onClose={onClose}
      labelledBy={titleId}
      describedBy={textId}
      role="alertdialog"
      className="confirm-dialog"
    >
      <h2 id={titleId}>Erase this subscriber completely?</h2>
      <div id={textId} className="confirm-dialog-text">
        <p className="confirm-dialog-target">{subscriber.email}</p>
        <p>
          Its subscription, its consent history and every e-mail to it, queued or sent, are deleted.
          This cannot be undone.
        </p>
        <p>
          A keyed hash of the address stays, so that an import skips it. If the person subscribes
          again on the website, that is new consent and is accepted.
        </p>
      </div>
      <EraseForm subscriber={subscriber} onCancel={onClose} />
    </Modal>
  );
}

function EraseForm({
  subscriber,
  onCancel,
}: {
  subscriber: SubscriberDetail;
  onCancel: () => void;
}) {
  const navigate = useNavigate();
  const [failure, setFailure] = useState<string | null>(null);
  const schema = eraseSubscriberSchema.refine((value) => value.email === subscriber.email, {
    message: SUBSCRIBER_TEXTS.confirmMismatch,
    path: ["email"],
  });
  const {
    register,
    handleSubmit,
    setError,
    formState: { errors, isSubmitting },
  } = useForm<EraseSubscriber>({ resolver: zodResolver(schema), defaultValues: { email: "" } });

  async function erase(values: EraseSubscriber) {
    setFailure(null);
    try {
      await api.delete(subscriberPath(subscriber.id), values);
      const state: ListState = { notice: SUBSCRIBER_TEXTS.erased(subscriber.email) };
      navigate("/subscribers", { state });
    } catch (error) {
      setFailure(showRefusal(error, setError, ["email"]));
    }
  }

  return (
    <form onSubmit={handleSubmit(erase)} noValidate>
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

/**
 * "Send a test": one copy to each address typed, the editor's own to begin
 * with. The addresses are checked here by the schema the server checks them
 * with, so a refusal reads the same from either, next to the field.
 */
import { useState } from "react";
import { useForm } from "react-hook-form";
import {
  type IssueDetail,
  NEWSLETTER_TEXTS,
  splitAddresses,
  testSendSchema,
} from "../../../shared/admin/newsletter.ts";
import { api } from "../../api/client.ts";
import { showRefusal } from "../../api/refusal.ts";
import { useMe } from "../../auth/session.tsx";
import { Field } from "../../components/Field.tsx";
import { Notice } from "../../components/Notice.tsx";

interface TestSendValues {
  /** The addresses as typed, separated by commas. */
  to: string;
}

interface Outcome {
  tone: "success" | "error";
  text: string;
}

interface TestSendFormProps {
  /** The issue as saved, saving the draft first if it has changes; null when that failed. */
  saveFirst(): Promise<IssueDetail | null>;
  /** Said when the draft could not be saved, so nothing was sent. */
  notSaved: string;
}

export function TestSendForm({ saveFirst, notSaved }: TestSendFormProps) {
  const me = useMe();
  const [outcome, setOutcome] = useState<Outcome | null>(null);
  const {
    register,
    handleSubmit,
    setError,
    formState: { errors, isSubmitting },
  } = useForm<TestSendValues>({ defaultValues: { to: me.email } });

  const submit = handleSubmit(async ({ to: typed }) => {
    setOutcome(null);
    const body = { to: splitAddresses(typed) };
    const checked = testSendSchema.safeParse(body);
    if (!checked.success) {
      setError("to", {
        message: checked.error.issues[0]?.message ?? NEWSLETTER_TEXTS.testNoAddress,
      });
      return;
    }
    const saved = await saveFirst();
    if (!saved) {
      setOutcome({ tone: "error", text: notSaved });
      return;
    }
    try {
      const answer = await api.call("newsletter.testSend", {
        params: { id: saved.id },
        body: checked.data,
      });
      setOutcome({ tone: "success", text: answer.message });
    } catch (error) {
      const failure = showRefusal(error, setError, ["to"]);
      if (failure) setOutcome({ tone: "error", text: failure });
    }
  });

  return (
    <form className="test-send-form" onSubmit={submit} noValidate>
      <Field
        label="Send a test to"
        type="email"
        multiple
        autoComplete="off"
        spellCheck={false}
        hint={NEWSLETTER_TEXTS.testAddressesHint}
        error={errors.to?.message}
        {...register("to")}
      />
      <button className="button" type="submit" disabled={isSubmitting}>
        {isSubmitting ? "Sending a test…" : "Send a test"}
      </button>
      {outcome ? <Notice tone={outcome.tone}>{outcome.text}</Notice> : null}
    </form>
  );
}

/** Turning the second factor off, confirmed with the password or a current code. */
import { zodResolver } from "@hookform/resolvers/zod";
import { useState } from "react";
import { useForm } from "react-hook-form";
import { type SecondFactorOff, secondFactorOffSchema } from "../../../shared/admin/account.ts";
import type { Me } from "../../../shared/admin/auth.ts";
import { api } from "../../api/client.ts";
import { showRefusal } from "../../api/refusal.ts";
import { Field } from "../../components/Field.tsx";
import { Notice } from "../../components/Notice.tsx";

export function TurnOffForm({ onTurnedOff }: { onTurnedOff: (me: Me) => void }) {
  const [failure, setFailure] = useState<string | null>(null);
  const {
    register,
    handleSubmit,
    setError,
    formState: { errors, isSubmitting },
  } = useForm<SecondFactorOff>({
    resolver: zodResolver(secondFactorOffSchema),
    defaultValues: { confirmation: "" },
  });

  const submit = handleSubmit(async (values) => {
    setFailure(null);
    try {
      const { me } = await api.call("account.turnOffSecondFactor", { body: values });
      onTurnedOff(me);
    } catch (error) {
      setFailure(showRefusal(error, setError, ["confirmation"]));
    }
  });

  return (
    <form onSubmit={submit} noValidate className="account-form totp-off">
      <Field
        label="Your password or a current code"
        hint="Turning it off makes your account easier to break into."
        type="password"
        autoComplete="current-password"
        error={errors.confirmation?.message}
        {...register("confirmation")}
      />
      {failure ? <Notice tone="error">{failure}</Notice> : null}
      <div>
        <button type="submit" className="button button-danger" disabled={isSubmitting}>
          Turn off the second factor
        </button>
      </div>
    </form>
  );
}

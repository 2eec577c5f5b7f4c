/**
 * A new password: the current one proves it is the account's owner at the
 * keyboard; afterwards every other session of the account is signed out.
 */
import { zodResolver } from "@hookform/resolvers/zod";
import { useState } from "react";
import { useForm } from "react-hook-form";
import { z } from "zod";
import { changePasswordSchema } from "../../../shared/admin/account.ts";
import { PASSWORD_MIN } from "../../../shared/admin/auth.ts";
import { api } from "../../api/client.ts";
import { showRefusal } from "../../api/refusal.ts";
import { Field } from "../../components/Field.tsx";
import { Notice } from "../../components/Notice.tsx";

const formSchema = changePasswordSchema
  .and(z.object({ repeat: z.string() }))
  .refine((values) => values.repeat === values.newPassword, {
    path: ["repeat"],
    message: "The two new passwords are not the same.",
  });
type PasswordForm = z.infer<typeof formSchema>;

export function PasswordSection({ email, onChanged }: { email: string; onChanged: () => void }) {
  const [outcome, setOutcome] = useState<{ tone: "success" | "error"; text: string } | null>(null);
  const {
    register,
    handleSubmit,
    reset,
    setError,
    formState: { errors, isSubmitting },
  } = useForm<PasswordForm>({
    resolver: zodResolver(formSchema),
    defaultValues: { currentPassword: "", newPassword: "", repeat: "" },
  });

  const submit = handleSubmit(async ({ currentPassword, newPassword }) => {
    setOutcome(null);
    try {
      const { message } = await api.call("account.changePassword", {
        body: { currentPassword, newPassword },
      });
      reset();
      setOutcome({ tone: "success", text: message });
      onChanged();
    } catch (error) {
      const text = showRefusal(error, setError, ["currentPassword", "newPassword"]);
      if (text) setOutcome({ tone: "error", text });
    }
  });

  return (
    <section className="panel account-section" aria-labelledby="password-title">
      <h2 id="password-title">Password</h2>
      <p className="panel-lead">
        Changing it signs you out everywhere else: on other computers, phones and browsers.
      </p>
      <form onSubmit={submit} noValidate className="account-form">
        {/* Lets a password manager know whose password this is. */}
        <input type="text" name="username" autoComplete="username" value={email} hidden readOnly />
        <Field
          label="Current password"
          type="password"
          autoComplete="current-password"
          error={errors.currentPassword?.message}
          {...register("currentPassword")}
        />
        <Field
          label="New password"
          hint={`At least ${PASSWORD_MIN} characters. A few unrelated words make a strong one.`}
          type="password"
          autoComplete="new-password"
          error={errors.newPassword?.message}
          {...register("newPassword")}
        />
        <Field
          label="The new password again"
          type="password"
          autoComplete="new-password"
          error={errors.repeat?.message}
          {...register("repeat")}
        />
        {outcome ? <Notice tone={outcome.tone}>{outcome.text}</Notice> : null}
        <div>
          <button className="button button-primary" type="submit" disabled={isSubmitting}>
            {isSubmitting ? "Changing…" : "Change password"}
          </button>
        </div>
      </form>
    </section>
  );
}

/** Asks for a password-reset link; the answer is the same whether or not the account exists. */
import { zodResolver } from "@hookform/resolvers/zod";
import { useState } from "react";
import { useForm } from "react-hook-form";
import { Link } from "react-router";
import type { z } from "zod";
import { passwordResetSchema } from "../../shared/admin/auth.ts";
import { api } from "../api/client.ts";
import { failureText } from "../api/refusal.ts";
import { Field } from "../components/Field.tsx";
import { Notice } from "../components/Notice.tsx";
import { AuthFrame } from "./AuthFrame.tsx";

export function ForgotPasswordScreen() {
  const [outcome, setOutcome] = useState<{ tone: "success" | "error"; text: string }>();
  const {
    register,
    handleSubmit,
    formState: { errors, isSubmitting },
  } = useForm<z.input<typeof passwordResetSchema>>({ resolver: zodResolver(passwordResetSchema) });

  const submit = handleSubmit(async (values) => {
    try {
      const { message } = await api.call("password.requestReset", { body: values });
      setOutcome({ tone: "success", text: message });
    } catch (error) {
      setOutcome({ tone: "error", text: failureText(error) });
    }
  });

  return (
    <AuthFrame title="Set a new password">
      <form onSubmit={submit} noValidate>
        <Field
          label="E-mail address of your account"
          type="email"
          autoComplete="username"
          error={errors.email?.message}
          {...register("email")}
        />
        {outcome ? <Notice tone={outcome.tone}>{outcome.text}</Notice> : null}
        <button className="button button-primary" type="submit" disabled={isSubmitting}>
          Send me a link
        </button>
      </form>
      <p className="auth-aside">
        <Link to="/">Back to sign-in</Link>
      </p>
    </AuthFrame>
  );
}

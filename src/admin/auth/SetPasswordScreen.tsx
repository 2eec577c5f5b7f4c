/**
 * Where an invitation or reset link leads. The token travels after `#`, so
 * it never reaches a server log or a Referer header.
 */
import { zodResolver } from "@hookform/resolvers/zod";
import { useState } from "react";
import { useForm } from "react-hook-form";
import { Link } from "react-router";
import { z } from "zod";
import { PASSWORD_MIN, passwordSchema } from "../../shared/admin/auth.ts";
import { api } from "../api/client.ts";
import { failureText } from "../api/refusal.ts";
import { Field } from "../components/Field.tsx";
import { Notice } from "../components/Notice.tsx";
import { AuthFrame } from "./AuthFrame.tsx";

const formSchema = z
  .object({ password: passwordSchema, repeat: z.string() })
  .refine((values) => values.password === values.repeat, {
    path: ["repeat"],
    message: "The two passwords are not the same.",
  });

function tokenFromHash(): string {
  return new URLSearchParams(window.location.hash.slice(1)).get("token") ?? "";
}

export function SetPasswordScreen() {
  const [token] = useState(tokenFromHash);
  const [outcome, setOutcome] = useState<{ tone: "success" | "error"; text: string }>();
  const {
    register,
    handleSubmit,
    formState: { errors, isSubmitting },
  } = useForm<z.infer<typeof formSchema>>({ resolver: zodResolver(formSchema) });

  const submit = handleSubmit(async ({ password }) => {
    try {
      const { message } = await api.call("password.set", { body: { token, password } });
      window.history.replaceState(null, "", window.location.pathname);
      setOutcome({ tone: "success", text: message });
    } catch (error) {
      setOutcome({ tone: "error", text: failureText(error) });
    }
  });

  return (
    <AuthFrame title="Choose your password">
      {outcome?.tone === "success" ? (
        <>
          <Notice tone="success">{outcome.text}</Notice>
          <p className="auth-aside">
            <Link to="/">Sign in</Link>
          </p>
        </>
      ) : (
        <form onSubmit={submit} noValidate>
          <Field
            label="New password"
            hint={`At least ${PASSWORD_MIN} characters. A few unrelated words make a strong one.`}
            type="password"
            autoComplete="new-password"
            error={errors.password?.message}
            {...register("password")}
          />
          <Field
            label="The same password again"
            type="password"
            autoComplete="new-password"
            error={errors.repeat?.message}
            {...register("repeat")}
          />
          {outcome ? <Notice tone={outcome.tone}>{outcome.text}</Notice> : null}
          <button className="button button-primary" type="submit" disabled={isSubmitting}>
            Set password
          </button>
        </form>
      )}
    </AuthFrame>
  );
}

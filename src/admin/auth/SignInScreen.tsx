/** Sign-in: e-mail and password, then a code when the account has a second factor. */
import { zodResolver } from "@hookform/resolvers/zod";
import { useState } from "react";
import { useForm } from "react-hook-form";
import { Link } from "react-router";
import { type SignIn, signInSchema } from "../../shared/admin/auth.ts";
import { ApiError, api } from "../api/client.ts";
import { failureText } from "../api/refusal.ts";
import { Field } from "../components/Field.tsx";
import { Notice } from "../components/Notice.tsx";
import { AuthFrame } from "./AuthFrame.tsx";
import { useSession } from "./session.tsx";

export function SignInScreen() {
  const { signedIn, endedBecause } = useSession();
  const [needsCode, setNeedsCode] = useState(false);
  const [refusal, setRefusal] = useState<string | null>(null);
  const {
    register,
    handleSubmit,
    formState: { errors, isSubmitting },
  } = useForm<SignIn>({ resolver: zodResolver(signInSchema) });

  const submit = handleSubmit(async (values) => {
    setRefusal(null);
    try {
      signedIn(await api.call("session.signIn", { body: values }));
    } catch (error) {
      if (error instanceof ApiError && error.body.secondFactor) setNeedsCode(true);
      setRefusal(failureText(error));
    }
  });

  return (
    <AuthFrame title="Sign in to the console">
      {endedBecause ? <Notice tone="error">{endedBecause}</Notice> : null}
      <form onSubmit={submit} noValidate>
        <Field
          label="E-mail address"
          type="email"
          autoComplete="username"
          error={errors.email?.message}
          {...register("email")}
        />
        <Field
          label="Password"
          type="password"
          autoComplete="current-password"
          error={errors.password?.message}
          {...register("password")}
        />
        {needsCode ? (
          <Field
            label="Code"
            hint="From your authenticator app, or one of your recovery codes."
            inputMode="text"
            autoComplete="one-time-code"
            autoFocus
            error={errors.code?.message}
            {...register("code")}
          />
        ) : null}
        {refusal ? <Notice tone="error">{refusal}</Notice> : null}
        <button className="button button-primary" type="submit" disabled={isSubmitting}>
          {isSubmitting ? "Signing in…" : "Sign in"}
        </button>
      </form>
      <p className="auth-aside">
        <Link to="/forgot-password">Forgot your password?</Link>
      </p>
    </AuthFrame>
  );
}

"use client";

import { useRouter } from "next/navigation";
import { useEffect, useState, type FormEvent } from "react";
import { mutate } from "swr";

import { Notice } from "@/components/ui/Notice";
import { Button } from "@/components/console/ui/Button";
import { Field } from "@/components/console/ui/Field";
import formStyles from "@/components/console/ui/forms.module.css";
import { SESSION_PATH, signIn } from "@/lib/auth/api";
import { useSession } from "@/lib/auth/hooks";
import { failureMessage, isConsoleUser, safeNext } from "@/lib/auth/types";
import { describeError } from "@/lib/api/client";

interface SignInFormProps {
  next?: string;
  failed?: string;
}

/**
 * Posts like any form until the page's JavaScript has loaded (the API answers a form post with
 * a redirect), so the password never ends up in a URL; with JavaScript it signs in in place.
 */
export function SignInForm({ next: nextParam, failed }: SignInFormProps) {
  const router = useRouter();
  const next = safeNext(nextParam ?? null);
  const { data: session } = useSession();
  const [username, setUsername] = useState("");
  const [password, setPassword] = useState("");
  const [error, setError] = useState(failed ? failureMessage(failed) : "");
  const [busy, setBusy] = useState(false);

  useEffect(() => {
    if (isConsoleUser(session)) router.replace(next);
  }, [session, next, router]);

  async function submit(event: FormEvent) {
    event.preventDefault();
    setBusy(true);
    setError("");
    try {
      await mutate(SESSION_PATH, await signIn(username, password), { revalidate: false });
    } catch (failure) {
      setError(describeError(failure));
    } finally {
      setBusy(false);
    }
  }

  return (
    <form
      className={formStyles.form}
      method="post"
      action="/api/auth/login/"
      onSubmit={submit}
      aria-label="Sign in"
    >
      <input type="hidden" name="next" value={next} />
      {error ? (
        <Notice tone="error" title="Could not sign in">
          {error}
        </Notice>
      ) : null}
      <Field label="Username">
        {(control) => (
          <input
            {...control}
            name="username"
            autoComplete="username"
            required
            value={username}
            onChange={(event) => setUsername(event.target.value)}
          />
        )}
      </Field>
      <Field label="Password">
        {(control) => (
          <input
            {...control}
            name="password"
            type="password"
            autoComplete="current-password"
            required
            value={password}
            onChange={(event) => setPassword(event.target.value)}
          />
        )}
      </Field>
      <div className={formStyles.actions}>
        <Button type="submit" variant="primary" disabled={busy}>
          {busy ? "Signing in…" : "Sign in"}
        </Button>
      </div>
    </form>
  );
}

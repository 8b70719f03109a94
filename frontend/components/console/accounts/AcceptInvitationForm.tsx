"use client";

import Link from "next/link";
import { useEffect, useState, type FormEvent } from "react";

import { Notice } from "@/components/ui/Notice";
import { Button } from "@/components/console/ui/Button";
import { Field } from "@/components/console/ui/Field";
import { Loading } from "@/components/console/ui/Status";
import formStyles from "@/components/console/ui/forms.module.css";
import { describeError } from "@/lib/api/client";
import { acceptInvitation, lookUpInvitation } from "@/lib/auth/api";
import type { InvitationOffer } from "@/lib/auth/types";

/** Shows what the link offers, then creates the account with the password chosen. */
export function AcceptInvitationForm({ token }: { token: string }) {
  const [offer, setOffer] = useState<InvitationOffer | null>(null);
  const [linkError, setLinkError] = useState(token ? "" : "This link has no invitation in it.");
  const [password, setPassword] = useState("");
  const [repeat, setRepeat] = useState("");
  const [error, setError] = useState("");
  const [busy, setBusy] = useState(false);
  const [username, setUsername] = useState("");

  useEffect(() => {
    if (!token) return;
    lookUpInvitation(token).then(setOffer, (failure) => setLinkError(describeError(failure)));
  }, [token]);

  async function submit(event: FormEvent) {
    event.preventDefault();
    setError("");
    if (password !== repeat) {
      setError("The two passwords differ.");
      return;
    }
    setBusy(true);
    try {
      setUsername((await acceptInvitation(token, password)).username);
    } catch (failure) {
      setError(describeError(failure));
    } finally {
      setBusy(false);
    }
  }

  if (linkError) {
    return (
      <Notice tone="error" title="This invitation cannot be used">
        {linkError}
      </Notice>
    );
  }
  if (username) {
    return (
      <Notice tone="info" title="Your account is ready.">
        <p>
          Sign in as <strong>{username}</strong> with the password you chose.
        </p>
        <Link href="/console/sign-in" className={`${formStyles.button} ${formStyles.primary}`}>
          Go to sign-in
        </Link>
      </Notice>
    );
  }
  if (!offer) return <Loading what="the invitation" />;
  return (
    <form className={formStyles.form} onSubmit={submit} aria-label="Choose a password">
      <p>
        You are invited as a <strong>{offer.role}</strong>; you will sign in as{" "}
        <strong>{offer.email}</strong>.
      </p>
      {error ? (
        <Notice tone="error" title="The password was not accepted">
          {error}
        </Notice>
      ) : null}
      <Field label="New password">
        {(c) => (
          <input
            {...c}
            type="password"
            autoComplete="new-password"
            required
            value={password}
            onChange={(e) => setPassword(e.target.value)}
          />
        )}
      </Field>
      <Field label="Repeat the password">
        {(c) => (
          <input
            {...c}
            type="password"
            autoComplete="new-password"
            required
            value={repeat}
            onChange={(e) => setRepeat(e.target.value)}
          />
        )}
      </Field>
      <div className={formStyles.actions}>
        <Button type="submit" variant="primary" disabled={busy}>
          {busy ? "Creating your account…" : "Create my account"}
        </Button>
      </div>
    </form>
  );
}

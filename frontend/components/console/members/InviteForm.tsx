"use client";

import { useState, type FormEvent } from "react";

import { Notice } from "@/components/ui/Notice";
import { ActionStatus } from "@/components/console/ui/ActionStatus";
import { Button } from "@/components/console/ui/Button";
import { CopyButton } from "@/components/console/ui/CopyButton";
import { Field } from "@/components/console/ui/Field";
import formStyles from "@/components/console/ui/forms.module.css";
import { useAction } from "@/lib/console/useAction";
import { inviteMember } from "@/lib/members/api";
import { ROLES, type CreatedInvitation, type Role } from "@/lib/members/types";

import { GuruPicker } from "./GuruPicker";

/** Invites by e-mail; the link is also shown when the mail server could not take it. */
export function InviteForm({ slugs, onInvited }: { slugs: string[]; onInvited: () => void }) {
  const [email, setEmail] = useState("");
  const [role, setRole] = useState<Role>("member");
  const [gurus, setGurus] = useState<string[]>([]);
  const [sent, setSent] = useState<CreatedInvitation | null>(null);
  const { run, busy, error, message } = useAction();

  async function submit(event: FormEvent) {
    event.preventDefault();
    await run(async () => {
      const created = await inviteMember(email.trim(), role, role === "admin" ? [] : gurus);
      setSent(created);
      setEmail("");
      setGurus([]);
      onInvited();
      return created.email_sent ? `Invitation sent to ${created.email}.` : "";
    });
  }

  return (
    <form className={formStyles.form} onSubmit={submit} aria-label="Invite a person">
      {sent && !sent.email_sent ? (
        <Notice tone="warn" title="The e-mail could not be sent: hand this link over yourself.">
          <div className={formStyles.actions}>
            <code data-part="invitation-url">{sent.url}</code>
            <CopyButton text={sent.url} label="Copy link" />
          </div>
        </Notice>
      ) : null}
      <div className={formStyles.row}>
        <Field label="E-mail">
          {(c) => (
            <input
              {...c}
              type="email"
              required
              autoComplete="off"
              value={email}
              onChange={(e) => setEmail(e.target.value)}
            />
          )}
        </Field>
        <Field label="Role" hint={ROLES.find((r) => r.value === role)?.hint}>
          {(c) => (
            <select {...c} value={role} onChange={(e) => setRole(e.target.value as Role)}>
              {ROLES.map((r) => (
                <option key={r.value} value={r.value}>
                  {r.label}
                </option>
              ))}
            </select>
          )}
        </Field>
      </div>
      {role !== "admin" ? (
        <GuruPicker legend="Gurus granted" slugs={slugs} chosen={gurus} onChange={setGurus} />
      ) : null}
      <div className={formStyles.actions}>
        <Button type="submit" variant="primary" disabled={busy}>
          Send invitation
        </Button>
      </div>
      <ActionStatus error={error} message={message} />
    </form>
  );
}

"use client";

import { useState } from "react";

import { Badge } from "@/components/ui/Badge";
import { ActionStatus } from "@/components/console/ui/ActionStatus";
import { Button } from "@/components/console/ui/Button";
import { ConfirmButton } from "@/components/console/ui/ConfirmButton";
import formStyles from "@/components/console/ui/forms.module.css";
import { useAction } from "@/lib/console/useAction";
import { grantGuru, revokeGuru, updateMember } from "@/lib/members/api";
import { ROLES, type Member, type Role } from "@/lib/members/types";

interface MemberRowProps {
  member: Member;
  slugs: string[];
  /** The signed-in admin: nobody changes their own role or access. */
  self: boolean;
  onChanged: () => void;
}

export function MemberRow({ member, slugs, self, onChanged }: MemberRowProps) {
  const { run, busy, error, message } = useAction();
  const [adding, setAdding] = useState("");
  const grantable = slugs.filter((slug) => !member.gurus.includes(slug));
  const name = member.username;
  const act = (action: () => Promise<unknown>, done: string) =>
    run(async () => {
      await action();
      onChanged();
      return done;
    });

  return (
    <tr data-member={name}>
      <th scope="row">
        {name}
        {member.active ? null : <Badge tone="off">deactivated</Badge>}
      </th>
      <td>
        <select
          aria-label={`Role of ${name}`}
          className={formStyles.input}
          value={member.role}
          disabled={self || busy}
          onChange={(e) =>
            void act(() => updateMember(member.id, { role: e.target.value as Role }), "Saved.")
          }
        >
          {member.role === "" ? <option value="">none</option> : null}
          {ROLES.map((r) => (
            <option key={r.value} value={r.value}>
              {r.label}
            </option>
          ))}
        </select>
      </td>
      <td>
        <ul className={formStyles.actions} aria-label={`Gurus of ${name}`}>
          {member.gurus.map((slug) => (
            <li key={slug} data-grant={slug}>
              <code>{slug}</code>{" "}
              <Button
                small
                disabled={busy}
                aria-label={`Revoke ${slug} from ${name}`}
                onClick={() => void act(() => revokeGuru(member.id, slug), "Revoked.")}
              >
                Revoke
              </Button>
            </li>
          ))}
        </ul>
        {grantable.length > 0 ? (
          <div className={formStyles.actions}>
            <select
              aria-label={`Guru to grant ${name}`}
              className={formStyles.input}
              value={adding}
              onChange={(e) => setAdding(e.target.value)}
            >
              <option value="">Choose a guru…</option>
              {grantable.map((slug) => (
                <option key={slug}>{slug}</option>
              ))}
            </select>
            <Button
              small
              disabled={busy || !adding}
              onClick={() => void act(() => grantGuru(member.id, adding), "Granted.")}
            >
              Grant
            </Button>
          </div>
        ) : null}
      </td>
      <td>
        {self || !member.active ? null : (
          <ConfirmButton
            small
            confirmLabel={`Deactivate ${name}`}
            onConfirm={() => act(() => updateMember(member.id, { active: false }), "").then()}
          >
            Deactivate
          </ConfirmButton>
        )}
        {!self && !member.active ? (
          <Button
            small
            disabled={busy}
            onClick={() => void act(() => updateMember(member.id, { active: true }), "Saved.")}
          >
            Reactivate
          </Button>
        ) : null}
        <ActionStatus error={error} message={message} />
      </td>
    </tr>
  );
}

"use client";

import { ConfirmButton } from "@/components/console/ui/ConfirmButton";
import table from "@/components/console/ui/table.module.css";
import { revokeInvitation } from "@/lib/members/api";
import type { Invitation } from "@/lib/members/types";

const when = (iso: string) => new Date(iso).toLocaleString();

export function InvitationTable({
  invitations,
  onRevoked,
}: {
  invitations: Invitation[];
  onRevoked: () => void;
}) {
  return (
    <div className={table.wrap}>
      <table className={table.table} aria-label="Open invitations">
        <thead>
          <tr>
            <th scope="col">E-mail</th>
            <th scope="col">Role</th>
            <th scope="col">Gurus</th>
            <th scope="col">Expires</th>
            <th scope="col">
              <span>Actions</span>
            </th>
          </tr>
        </thead>
        <tbody>
          {invitations.map((invitation) => (
            <tr key={invitation.id} data-invitation={invitation.email}>
              <td>{invitation.email}</td>
              <td>{invitation.role}</td>
              <td>{invitation.gurus.join(", ") || "none"}</td>
              <td>{when(invitation.expires_at)}</td>
              <td>
                <ConfirmButton
                  small
                  confirmLabel={`Revoke the invitation of ${invitation.email}`}
                  onConfirm={async () => {
                    await revokeInvitation(invitation.id);
                    onRevoked();
                  }}
                >
                  Revoke
                </ConfirmButton>
              </td>
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  );
}

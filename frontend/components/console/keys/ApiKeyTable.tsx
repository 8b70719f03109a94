"use client";

import { ConfirmButton } from "@/components/console/ui/ConfirmButton";
import table from "@/components/console/ui/table.module.css";
import { revokeApiKey } from "@/lib/keys/api";
import type { ApiKey } from "@/lib/keys/types";

const when = (iso: string | null) => (iso ? new Date(iso).toLocaleString() : "never");

export function ApiKeyTable({ keys, onRevoked }: { keys: ApiKey[]; onRevoked: () => void }) {
  return (
    <div className={table.wrap}>
      <table className={table.table} aria-label="API keys" data-part="api-keys">
        <thead>
          <tr>
            <th scope="col">Name</th>
            <th scope="col">Key</th>
            <th scope="col">Created</th>
            <th scope="col">Last used</th>
            <th scope="col">
              <span>Actions</span>
            </th>
          </tr>
        </thead>
        <tbody>
          {keys.map((key) => (
            <tr key={key.id} data-key-id={key.id}>
              <td>{key.name}</td>
              <td>
                <code data-part="key-prefix">{key.prefix}…</code>
              </td>
              <td>{when(key.created_at)}</td>
              <td>{when(key.last_used_at)}</td>
              <td>
                <ConfirmButton
                  small
                  confirmLabel={`Revoke ${key.name}`}
                  onConfirm={async () => {
                    await revokeApiKey(key.id);
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

"use client";

import { ConfirmButton } from "@/components/console/ui/ConfirmButton";
import table from "@/components/console/ui/table.module.css";
import { revokeApiKey } from "@/lib/keys/api";
import type { ApiKey } from "@/lib/keys/types";

const when = (iso: string | null) => (iso ? new Date(iso).toLocaleString() : "never");

const SCOPES = { "": "Everything you may do", ask: "Ask", manage: "Manage" } as const;

/** What the key may do, and where: "Ask · python, go" or "Everything you may do · all gurus". */
export function scopeLabel(key: ApiKey): string {
  const where = key.gurus.length ? key.gurus.join(", ") : "all gurus";
  return `${SCOPES[key.scope] ?? key.scope} · ${where}`;
}

export function ApiKeyTable({ keys, onRevoked }: { keys: ApiKey[]; onRevoked: () => void }) {
  return (
    <div className={table.wrap}>
      <table className={table.table} aria-label="API keys" data-part="api-keys">
        <thead>
          <tr>
            <th scope="col">Name</th>
            <th scope="col">Key</th>
            <th scope="col">Scope</th>
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
              <td data-part="key-scope">{scopeLabel(key)}</td>
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

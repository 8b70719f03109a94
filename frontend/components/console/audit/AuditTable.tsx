import table from "@/components/console/ui/table.module.css";
import type { AuditEvent } from "@/lib/audit/types";

/** Changed fields as `name: before → after` (secrets arrive masked from the API). */
function changes(event: AuditEvent): string {
  const before = (event.before ?? {}) as Record<string, unknown>;
  const after = (event.after ?? {}) as Record<string, unknown>;
  const names = [...new Set([...Object.keys(before), ...Object.keys(after)])];
  const shown = (value: unknown) => (value === undefined ? "–" : JSON.stringify(value));
  return names.map((name) => `${name}: ${shown(before[name])} → ${shown(after[name])}`).join("; ");
}

export function AuditTable({ events }: { events: AuditEvent[] }) {
  return (
    // Wider than the page on small screens: the region takes focus so keys can scroll it.
    <div className={table.wrap} tabIndex={0} role="region" aria-label="Audit events, scrollable">
      <table className={table.table} aria-label="Audit events" data-part="audit-events">
        <thead>
          <tr>
            <th scope="col">When</th>
            <th scope="col">Actor</th>
            <th scope="col">Action</th>
            <th scope="col">Guru</th>
            <th scope="col">Target</th>
            <th scope="col">Changes</th>
            <th scope="col">Client</th>
          </tr>
        </thead>
        <tbody>
          {events.map((event) => (
            <tr key={event.id} data-action={event.action}>
              <td>
                <time dateTime={event.created_at}>
                  {new Date(event.created_at).toLocaleString()}
                </time>
              </td>
              <td>{event.actor}</td>
              <td>
                <code>{event.action}</code>
              </td>
              <td>{event.guru_slug}</td>
              <td>{event.target}</td>
              <td>{changes(event)}</td>
              <td>{event.client_ip}</td>
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  );
}

"use client";

import { Badge } from "@/components/ui/Badge";
import { ErrorNotice, Loading } from "@/components/console/ui/Status";
import table from "@/components/console/ui/table.module.css";
import { describeComponent } from "@/lib/health/types";
import { useHealth } from "@/lib/settings/hooks";

const TONES = { ok: "ok", off: "off", error: "error" } as const;

/** `/api/health/`, refreshed every few seconds. */
export function HealthList() {
  const { data: report, error } = useHealth();
  if (error) return <ErrorNotice title="Health could not be read" error={error} />;
  if (!report) return <Loading what="health" />;
  return (
    <table className={table.table} aria-label="Health" data-part="health">
      <tbody>
        {Object.entries(report.components).map(([name, state]) => {
          const view = describeComponent(name, state);
          return (
            <tr key={name}>
              <th scope="row">{view.label}</th>
              <td>
                <Badge tone={TONES[view.level]}>{view.summary}</Badge> {view.reason}
              </td>
            </tr>
          );
        })}
      </tbody>
    </table>
  );
}

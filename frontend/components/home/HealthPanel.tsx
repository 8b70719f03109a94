import { ApiProblem } from "@/components/ui/ApiProblem";
import { Badge, type BadgeTone } from "@/components/ui/Badge";
import { getHealth } from "@/lib/health/api";
import { describeComponent, type ComponentLevel, type HealthReport } from "@/lib/health/types";

import styles from "./home.module.css";

const LEVEL_TONE: Record<ComponentLevel, BadgeTone> = { ok: "ok", off: "off", error: "error" };

/** Fetches on its own so a slow health check never holds back the guru list. */
export async function HealthPanel() {
  const health = await getHealth();
  if (!health.ok) return <ApiProblem error={health.error} />;
  return <HealthTable report={health.data} />;
}

function HealthTable({ report }: { report: HealthReport }) {
  return (
    <div className={styles.panel}>
      <div className={styles.panelHead}>
        <span>Platform</span>
        <Badge tone={report.status === "ok" ? "ok" : "warn"}>
          {report.status === "ok" ? "All systems go" : "Degraded"}
        </Badge>
      </div>
      <ul className={styles.components}>
        {Object.entries(report.components).map(([name, state]) => {
          const component = describeComponent(name, state);
          return (
            <li key={name} className={styles.component}>
              <span className={styles.componentText}>
                <span>{component.label}</span>
                {component.reason ? (
                  <span className={styles.componentReason}>{component.reason}</span>
                ) : null}
              </span>
              <Badge tone={LEVEL_TONE[component.level]}>{component.summary}</Badge>
            </li>
          );
        })}
      </ul>
    </div>
  );
}

export function HealthPanelSkeleton() {
  return (
    <div className={styles.panel} aria-busy="true">
      <div className={styles.panelHead}>
        <span>Platform</span>
        <Badge tone="off">Checking…</Badge>
      </div>
    </div>
  );
}

"use client";

import { Button } from "@/components/console/ui/Button";
import formStyles from "@/components/console/ui/forms.module.css";
import { useAction } from "@/lib/console/useAction";
import { exportAnalytics } from "@/lib/analytics/api";
import type { ExportType, Interval } from "@/lib/analytics/types";

const FORMATS: { type: ExportType; label: string }[] = [
  { type: "csv", label: "CSV" },
  { type: "json", label: "JSON" },
  { type: "xlsx", label: "Excel" },
];

/** The interval's questions as a file, one row per question. */
export function ExportButtons({ slug, interval }: { slug: string; interval: Interval }) {
  const { run, busy, error, message } = useAction();
  return (
    <div className={formStyles.actions} role="group" aria-label="Export questions">
      {FORMATS.map(({ type, label }) => (
        <Button
          key={type}
          disabled={busy}
          onClick={() =>
            run(async () => `Downloaded ${await exportAnalytics(slug, type, interval)}.`)
          }
        >
          Export {label}
        </Button>
      ))}
      <span aria-live="polite" role={error ? "alert" : undefined}>
        {error || message}
      </span>
    </div>
  );
}

import { Field } from "@/components/console/ui/Field";
import { INTERVALS, type Interval } from "@/lib/analytics/types";

export function IntervalPicker({
  value,
  onChange,
}: {
  value: Interval;
  onChange: (v: Interval) => void;
}) {
  return (
    <Field label="Interval">
      {(c) => (
        <select {...c} value={value} onChange={(e) => onChange(e.target.value as Interval)}>
          {INTERVALS.map((option) => (
            <option key={option.value} value={option.value}>
              {option.label}
            </option>
          ))}
        </select>
      )}
    </Field>
  );
}

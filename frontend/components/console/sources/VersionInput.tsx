import { Field } from "@/components/console/ui/Field";

/** The documentation version a new source belongs to ("4.2", "latest"); empty: every version. */
export function VersionInput({
  value,
  onChange,
}: {
  value: string;
  onChange: (v: string) => void;
}) {
  return (
    <Field label="Version" hint="Such as 4.2 or latest. Empty: it applies to every version.">
      {(c) => (
        <input {...c} maxLength={32} value={value} onChange={(e) => onChange(e.target.value)} />
      )}
    </Field>
  );
}

import { Checkbox } from "@/components/console/ui/Checkbox";
import { Field } from "@/components/console/ui/Field";
import formStyles from "@/components/console/ui/forms.module.css";
import type { GuruFormValues } from "@/lib/console/guruForm";

type TextKey = Exclude<keyof GuruFormValues, "active">;

interface GuruFieldsProps {
  values: GuruFormValues;
  creating: boolean;
  onText: (field: TextKey, value: string) => void;
  onActive: (active: boolean) => void;
  /** Django does not return the saved instructions: the field starts empty and empty keeps them. */
  instructionHidden?: boolean;
  /** The threshold calibrated from the guru's sources, shown beside the field that overrides it. */
  calibrated?: number | null;
}

function thresholdHint(calibrated: number | null | undefined): string {
  const fallback =
    calibrated == null
      ? "the one calibrated from its sources once they are indexed, else the deployment's"
      : `the one calibrated from its sources (${calibrated.toFixed(2)})`;
  return `Questions whose best passage scores below this are refused. Empty: ${fallback}.`;
}

/** The guru's own fields; the form around them owns state and saving. */
export function GuruFields(props: GuruFieldsProps) {
  const { values, creating, onText, onActive, instructionHidden = false, calibrated } = props;
  const text = (field: TextKey) => ({
    value: values[field],
    onChange: (event: { target: { value: string } }) => onText(field, event.target.value),
  });
  return (
    <>
      <div className={formStyles.row}>
        <Field label="Name">
          {(c) => <input {...c} required maxLength={100} {...text("name")} />}
        </Field>
        <Field
          label="Slug"
          hint={creating ? "Its address: /g/<slug>. Fixed once created." : "Fixed once created."}
        >
          {(c) => (
            <input
              {...c}
              required
              readOnly={!creating}
              pattern="[a-z0-9]+(-[a-z0-9]+)*"
              {...text("slug")}
            />
          )}
        </Field>
      </div>
      <Field label="Domain knowledge" hint="One line under the name, e.g. “The Python language”.">
        {(c) => <input {...c} maxLength={200} {...text("domain_knowledge")} />}
      </Field>
      <Field
        label="Custom instructions"
        hint={
          instructionHidden
            ? "Added to every answer's prompt. The saved ones are not shown: type new ones to replace them, or leave this empty to keep them."
            : "Added to every answer's prompt."
        }
      >
        {(c) => <textarea {...c} rows={4} {...text("custom_instruction")} />}
      </Field>
      <div className={formStyles.row}>
        <Field label="Main colour">
          {(c) => <input {...c} type="color" {...text("base_color")} />}
        </Field>
        <Field label="Light colour">
          {(c) => <input {...c} type="color" {...text("light_color")} />}
        </Field>
      </div>
      <div className={formStyles.row}>
        <Field
          label="Answer mode"
          hint="Fast: one LLM call before the first word, no relevance check."
        >
          {(c) => (
            <select {...c} {...text("answer_mode")}>
              <option value="">The deployment&apos;s</option>
              <option value="default">Default (relevance checked first)</option>
              <option value="fast">Fast</option>
            </select>
          )}
        </Field>
        <Field label="Trust threshold" hint={thresholdHint(calibrated)}>
          {(c) => (
            <input {...c} type="number" min={0} max={1} step={0.01} {...text("trust_threshold")} />
          )}
        </Field>
      </div>
      <Field label="Icon URL" hint="Or upload an image below.">
        {(c) => <input {...c} type="url" {...text("icon_url")} />}
      </Field>
      {creating ? null : (
        <>
          <Field
            label="Default version"
            hint="The documentation version a question that names none is answered from. Empty: the newest version label its sources carry."
          >
            {(c) => <input {...c} maxLength={32} {...text("default_version")} />}
          </Field>
          <div className={formStyles.row}>
            <Field label="Anonymous questions per hour" hint="Empty: the default; 0: no limit.">
              {(c) => <input {...c} type="number" min={0} {...text("anonymous_asks_per_hour")} />}
            </Field>
            <Field label="Anonymous questions per day" hint="Empty: the default; 0: no limit.">
              {(c) => <input {...c} type="number" min={0} {...text("anonymous_asks_per_day")} />}
            </Field>
          </div>
          <Field
            label="Visibility"
            hint="Private: only admins and the people granted it see and ask it, on every channel; its pages are not indexed and its widget needs signed tokens."
          >
            {(c) => (
              <select {...c} {...text("visibility")}>
                <option value="public">Public</option>
                <option value="private">Private</option>
              </select>
            )}
          </Field>
          <Checkbox checked={values.active} onChange={onActive}>
            Active (listed and answering on the public site)
          </Checkbox>
        </>
      )}
      <Field
        label="GitHub webhook secret"
        hint={creating ? "Optional: signs push webhooks." : "Leave empty to keep the current one."}
      >
        {(c) => (
          <input {...c} type="password" autoComplete="off" {...text("github_webhook_secret")} />
        )}
      </Field>
    </>
  );
}

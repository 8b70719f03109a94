import { Field } from "@/components/console/ui/Field";

export type Deployment = "cloud" | "datacenter";

/** Cloud or Data Center: the choice decides the URL's shape and whether an email goes with
 * the token. */
export function DeploymentField({
  product,
  value,
  onChange,
}: {
  product: string;
  value: Deployment;
  onChange: (deployment: Deployment) => void;
}) {
  return (
    <Field label="Deployment">
      {(c) => (
        <select {...c} value={value} onChange={(e) => onChange(e.target.value as Deployment)}>
          <option value="cloud">{product} Cloud</option>
          <option value="datacenter">{product} Data Center or Server</option>
        </select>
      )}
    </Field>
  );
}

/** The Atlassian account a Cloud API token belongs to. */
export function AccountEmailField({
  value,
  onChange,
}: {
  value: string;
  onChange: (email: string) => void;
}) {
  return (
    <Field label="Email" hint="The Atlassian account the API token belongs to.">
      {(c) => (
        <input
          {...c}
          type="email"
          required
          autoComplete="off"
          value={value}
          onChange={(e) => onChange(e.target.value)}
        />
      )}
    </Field>
  );
}

export function atlassianTokenHint(deployment: Deployment): string {
  return deployment === "cloud"
    ? "An API token of that account. Stored encrypted."
    : "A personal access token. Stored encrypted.";
}

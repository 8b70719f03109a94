import table from "@/components/console/ui/table.module.css";
import { labelFor, readOnlyFacts, type PlatformSettings } from "@/lib/settings/types";

/** What the deployment runs on; set by environment variables, so read-only here. */
export function ProviderFacts({ settings }: { settings: PlatformSettings }) {
  return (
    <table className={table.table} aria-label="Providers" data-part="providers">
      <tbody>
        {readOnlyFacts(settings).map(([name, value]) => (
          <tr key={name}>
            <th scope="row">{labelFor(name)}</th>
            <td>
              <code>{value}</code>
            </td>
          </tr>
        ))}
      </tbody>
    </table>
  );
}

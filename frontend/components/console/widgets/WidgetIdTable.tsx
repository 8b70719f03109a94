"use client";

import { Button } from "@/components/console/ui/Button";
import { ConfirmButton } from "@/components/console/ui/ConfirmButton";
import table from "@/components/console/ui/table.module.css";
import { deleteWidgetId } from "@/lib/widgets/api";
import type { WidgetId } from "@/lib/widgets/types";

import { WidgetSecret } from "./WidgetSecret";

interface WidgetIdTableProps {
  slug: string;
  ids: WidgetId[];
  chosen: number | null;
  onChoose: (id: number) => void;
  onDeleted: () => void;
}

export function WidgetIdTable({ slug, ids, chosen, onChoose, onDeleted }: WidgetIdTableProps) {
  return (
    <div className={table.wrap}>
      <table className={table.table} aria-label="Widget ids" data-part="widget-ids">
        <thead>
          <tr>
            <th scope="col">Allowed sites</th>
            <th scope="col">Widget id</th>
            <th scope="col">Actions</th>
          </tr>
        </thead>
        <tbody>
          {ids.map((widget) => (
            <tr key={widget.id} data-widget-id={widget.key}>
              <td>
                {widget.domain_pattern === "*" ? "any site" : widget.domain_pattern || "no site"}
              </td>
              <td className={table.break}>
                <code>{widget.key}</code>
              </td>
              <td>
                <Button
                  small
                  aria-pressed={chosen === widget.id}
                  onClick={() => onChoose(widget.id)}
                >
                  Show snippet
                </Button>{" "}
                <ConfirmButton
                  small
                  confirmLabel="Delete it"
                  onConfirm={async () => {
                    await deleteWidgetId(slug, widget.id);
                    onDeleted();
                  }}
                >
                  Delete
                </ConfirmButton>{" "}
                <WidgetSecret slug={slug} widget={widget} onMade={onDeleted} />
              </td>
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  );
}

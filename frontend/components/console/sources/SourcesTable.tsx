"use client";

import { useState } from "react";

import table from "@/components/console/ui/table.module.css";
import type { Source } from "@/lib/sources/types";

import { BulkActions } from "./BulkActions";
import { SourceRow } from "./SourceRow";

interface SourcesTableProps {
  slug: string;
  sources: Source[];
  onChanged: () => void;
}

export function SourcesTable({ slug, sources, onChanged }: SourcesTableProps) {
  const [picked, setPicked] = useState<Set<number>>(new Set());
  // Only ids still listed count: a deleted source drops out of the selection by itself.
  const selected = sources.filter((s) => picked.has(s.id)).map((s) => s.id);
  const allSelected = sources.length > 0 && selected.length === sources.length;

  function select(id: number, on: boolean) {
    setPicked((current) => {
      const next = new Set(current);
      if (on) next.add(id);
      else next.delete(id);
      return next;
    });
  }

  function done() {
    setPicked(new Set());
    onChanged();
  }

  return (
    <>
      <BulkActions slug={slug} selected={selected} onDone={done} />
      <div className={table.wrap}>
        <table
          className={`${table.table} ${table.stacked}`}
          aria-label="Sources"
          data-part="sources"
        >
          <thead>
            <tr>
              <th scope="col">
                <input
                  type="checkbox"
                  aria-label="Select all sources"
                  checked={allSelected}
                  onChange={(e) =>
                    setPicked(new Set(e.target.checked ? sources.map((s) => s.id) : []))
                  }
                />
              </th>
              <th scope="col">Type</th>
              <th scope="col">Title or address</th>
              <th scope="col">Status</th>
              <th scope="col" className={table.number}>
                Chunks
              </th>
              <th scope="col">Last indexed</th>
            </tr>
          </thead>
          <tbody>
            {sources.map((source) => (
              <SourceRow
                key={source.id}
                slug={slug}
                onChanged={onChanged}
                source={source}
                selected={picked.has(source.id)}
                onSelect={(on) => select(source.id, on)}
              />
            ))}
          </tbody>
        </table>
      </div>
    </>
  );
}

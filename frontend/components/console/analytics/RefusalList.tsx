"use client";

import { useState } from "react";

import { Button } from "@/components/console/ui/Button";
import { ErrorNotice, Loading } from "@/components/console/ui/Status";
import table from "@/components/console/ui/table.module.css";
import { useRefusals } from "@/lib/analytics/hooks";
import type { Interval, Refusal } from "@/lib/analytics/types";

const REASONS: Record<Refusal["reason"], string> = {
  refused: "Refused",
  out_of_context: "Not in the sources",
  low_trust: "Low trust",
};

/** Questions the guru could not answer well, newest first, a page at a time. */
export function RefusalList({ slug, interval }: { slug: string; interval: Interval }) {
  const [page, setPage] = useState(1);
  const { data, error } = useRefusals(slug, interval, page);
  if (error) return <ErrorNotice title="These questions could not be loaded" error={error} />;
  if (!data) return <Loading what="questions" />;
  if (!data.count) return <p>None in this interval.</p>;
  const shownUpTo = (page - 1) * 50 + data.results.length;
  return (
    <>
      <div className={table.wrap}>
        <table className={table.table} aria-label="Unanswered questions" data-part="refusals">
          <thead>
            <tr>
              <th scope="col">Question</th>
              <th scope="col">Why</th>
              <th scope="col">Channel</th>
              <th scope="col">Asked</th>
            </tr>
          </thead>
          <tbody>
            {data.results.map((item, index) => (
              <tr key={`${item.asked_at}-${index}`} data-reason={item.reason}>
                <td className={table.break}>{item.question}</td>
                <td>
                  {REASONS[item.reason]}
                  {item.trust_score != null ? ` (${Math.round(item.trust_score * 100)}%)` : ""}
                </td>
                <td>{item.channel}</td>
                <td>{new Date(item.asked_at).toLocaleString()}</td>
              </tr>
            ))}
          </tbody>
        </table>
      </div>
      <div role="group" aria-label="Pages">
        <Button small disabled={page === 1} onClick={() => setPage(page - 1)}>
          Newer
        </Button>{" "}
        <span>
          {shownUpTo} of {data.count}
        </span>{" "}
        <Button small disabled={shownUpTo >= data.count} onClick={() => setPage(page + 1)}>
          Older
        </Button>
      </div>
    </>
  );
}

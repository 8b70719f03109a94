"use client";

import { useState } from "react";

import { Button } from "@/components/console/ui/Button";
import { Card } from "@/components/console/ui/Card";
import { PageHeader } from "@/components/console/ui/PageHeader";
import { ErrorNotice, Loading } from "@/components/console/ui/Status";
import formStyles from "@/components/console/ui/forms.module.css";
import { AUDIT_PAGE_SIZE, auditExportPath } from "@/lib/audit/api";
import { useAuditPage } from "@/lib/audit/hooks";
import { NO_FILTERS, type AuditFilters } from "@/lib/audit/types";

import { AuditFilterForm } from "./AuditFilterForm";
import { AuditTable } from "./AuditTable";

export function AuditPanel() {
  const [filters, setFilters] = useState<AuditFilters>(NO_FILTERS);
  const [page, setPage] = useState(1);
  const { data, error } = useAuditPage(filters, page);
  const pages = data ? Math.max(1, Math.ceil(data.count / AUDIT_PAGE_SIZE)) : 1;

  return (
    <>
      <PageHeader
        title="Audit log"
        description="Every change and sign-in, newest first."
        actions={
          <a href={auditExportPath(filters)} className={formStyles.button} download="audit-log.csv">
            Export CSV
          </a>
        }
      />
      <Card title="Filters">
        <AuditFilterForm
          onApply={(next) => {
            setFilters(next);
            setPage(1);
          }}
        />
      </Card>
      <Card title="Events" part="audit">
        {error ? <ErrorNotice title="The audit log could not be loaded" error={error} /> : null}
        {!data && !error ? <Loading what="the audit log" /> : null}
        {data && data.count === 0 ? <p>No events match.</p> : null}
        {data && data.results.length > 0 ? <AuditTable events={data.results} /> : null}
        {data ? (
          <nav className={formStyles.actions} aria-label="Audit log pages">
            <Button disabled={page <= 1} onClick={() => setPage(page - 1)}>
              Previous page
            </Button>
            <span aria-live="polite">
              Page {page} of {pages} ({data.count} events)
            </span>
            <Button disabled={page >= pages} onClick={() => setPage(page + 1)}>
              Next page
            </Button>
          </nav>
        ) : null}
      </Card>
    </>
  );
}

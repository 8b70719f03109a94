import type { Metadata } from "next";

import { AuditPanel } from "@/components/console/audit/AuditPanel";

export const metadata: Metadata = { title: "Audit log" };

export default function AuditPage() {
  return <AuditPanel />;
}

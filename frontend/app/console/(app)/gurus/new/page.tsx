import type { Metadata } from "next";

import { GuruForm } from "@/components/console/gurus/GuruForm";
import { Card } from "@/components/console/ui/Card";
import { PageHeader } from "@/components/console/ui/PageHeader";
import { EMPTY_GURU } from "@/lib/console/guruForm";

export const metadata: Metadata = { title: "New guru" };

export default function NewGuruPage() {
  return (
    <>
      <PageHeader title="New guru" description="Name it, then add its sources." />
      <Card title="Settings">
        <GuruForm initial={EMPTY_GURU} />
      </Card>
    </>
  );
}

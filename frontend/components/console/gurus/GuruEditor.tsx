"use client";

import { Card } from "@/components/console/ui/Card";
import { ErrorNotice, Loading } from "@/components/console/ui/Status";
import { valuesFromGuru } from "@/lib/console/guruForm";
import { useGuru } from "@/lib/console/gurus";

import { DeleteGuru } from "./DeleteGuru";
import { GuruForm } from "./GuruForm";

/** A guru's settings page: the form, prefilled, and the way to delete it. */
export function GuruEditor({ slug }: { slug: string }) {
  const { data: guru, error } = useGuru(slug);
  if (error) return <ErrorNotice title="This guru could not be loaded" error={error} />;
  if (!guru) return <Loading what="the guru" />;
  return (
    <>
      <Card title="Settings">
        <GuruForm
          key={guru.slug}
          slug={guru.slug}
          initial={valuesFromGuru(guru)}
          instructionHidden={guru.custom_instruction === undefined}
          calibrated={guru.calibrated_trust_threshold}
        />
      </Card>
      <Card title="Delete this guru">
        <DeleteGuru slug={guru.slug} name={guru.name} />
      </Card>
    </>
  );
}

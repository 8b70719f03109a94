"use client";

import { PageHeader } from "@/components/console/ui/PageHeader";
import { useGuru } from "@/lib/console/gurus";

import { GuruTabs } from "./GuruTabs";

/** The heading and tabs above every page of one guru. */
export function GuruHeader({ slug }: { slug: string }) {
  const { data: guru } = useGuru(slug);
  return (
    <>
      <PageHeader
        title={guru?.name ?? slug}
        description={
          <>
            Public page: <a href={`/g/${slug}`}>/g/{slug}</a>
          </>
        }
      />
      <GuruTabs slug={slug} />
    </>
  );
}

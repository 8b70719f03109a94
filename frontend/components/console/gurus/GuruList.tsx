"use client";

import Link from "next/link";

import { Badge } from "@/components/ui/Badge";
import { GuruAvatar } from "@/components/ui/GuruAvatar";
import { PageHeader } from "@/components/console/ui/PageHeader";
import { ErrorNotice, Loading } from "@/components/console/ui/Status";
import formStyles from "@/components/console/ui/forms.module.css";
import table from "@/components/console/ui/table.module.css";
import { useGurus } from "@/lib/console/gurus";

export function GuruList() {
  const { data: gurus, error } = useGurus();
  return (
    <>
      <PageHeader
        title="Gurus"
        description="Each guru answers from its own sources."
        actions={
          <Link href="/console/gurus/new" className={`${formStyles.button} ${formStyles.primary}`}>
            New guru
          </Link>
        }
      />
      {error ? <ErrorNotice title="Gurus could not be loaded" error={error} /> : null}
      {!gurus && !error ? <Loading what="gurus" /> : null}
      {gurus && gurus.length === 0 ? <p>No gurus yet: create the first one.</p> : null}
      {gurus && gurus.length > 0 ? (
        <div className={table.wrap}>
          <table className={table.table} aria-label="Gurus">
            <thead>
              <tr>
                <th scope="col">Guru</th>
                <th scope="col">Slug</th>
                <th scope="col">Status</th>
                <th scope="col">Public page</th>
              </tr>
            </thead>
            <tbody>
              {gurus.map((guru) => (
                <tr key={guru.slug} data-guru={guru.slug}>
                  <td>
                    <Link href={`/console/gurus/${guru.slug}`} className={table.withIcon}>
                      <GuruAvatar guru={guru} /> {guru.name}
                    </Link>
                  </td>
                  <td>
                    <code>{guru.slug}</code>
                  </td>
                  <td>
                    {guru.active ? (
                      <Badge tone="ok">active</Badge>
                    ) : (
                      <Badge tone="off">hidden</Badge>
                    )}
                  </td>
                  <td>
                    <Link href={`/g/${guru.slug}`}>Open /g/{guru.slug}</Link>
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      ) : null}
    </>
  );
}

"use client";

import Link from "next/link";

import { Badge } from "@/components/ui/Badge";
import { GuruAvatar } from "@/components/ui/GuruAvatar";
import { PageHeader } from "@/components/console/ui/PageHeader";
import { ErrorNotice, Loading } from "@/components/console/ui/Status";
import formStyles from "@/components/console/ui/forms.module.css";
import table from "@/components/console/ui/table.module.css";
import { useSession } from "@/lib/auth/hooks";
import { isAdmin } from "@/lib/auth/types";
import { useGurus } from "@/lib/console/gurus";
import { useMe } from "@/lib/members/hooks";

/** Admins see every guru; maintainers and members the ones granted to them. */
function useShownGurus() {
  const { data: session } = useSession();
  const admin = isAdmin(session);
  const { data: gurus, error } = useGurus();
  const { data: me, error: meError } = useMe();
  // Members read and ask: their link goes to the guru's page, not its settings.
  const manages = admin || me?.role === "maintainer";
  if (admin) return { gurus, error, admin, manages };
  const granted = me ? gurus?.filter((guru) => me.gurus.includes(guru.slug)) : undefined;
  return { gurus: granted, error: error ?? meError, admin, manages };
}

export function GuruList() {
  const { gurus, error, admin, manages } = useShownGurus();
  return (
    <>
      <PageHeader
        title="Gurus"
        description={
          admin ? "Each guru answers from its own sources." : "The gurus granted to you."
        }
        actions={
          admin ? (
            <Link
              href="/console/gurus/new"
              className={`${formStyles.button} ${formStyles.primary}`}
            >
              New guru
            </Link>
          ) : null
        }
      />
      {error ? <ErrorNotice title="Gurus could not be loaded" error={error} /> : null}
      {!gurus && !error ? <Loading what="gurus" /> : null}
      {gurus && gurus.length === 0 ? (
        <p>{admin ? "No gurus yet: create the first one." : "No gurus are granted to you yet."}</p>
      ) : null}
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
                    <Link
                      href={manages ? `/console/gurus/${guru.slug}` : `/g/${guru.slug}`}
                      className={table.withIcon}
                    >
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

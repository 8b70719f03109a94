import type { Metadata } from "next";

import { AcceptInvitationForm } from "@/components/console/accounts/AcceptInvitationForm";
import styles from "@/components/console/ui/layout.module.css";

export const metadata: Metadata = { title: "Accept your invitation" };

interface AcceptPageProps {
  searchParams: Promise<Record<string, string | string[] | undefined>>;
}

/** The link in the invitation e-mail: /console/accept-invitation?token=… */
export default async function AcceptInvitationPage({ searchParams }: AcceptPageProps) {
  const token = (await searchParams).token;
  return (
    <main className={styles.narrow}>
      <header>
        <h1 className={styles.pageTitle}>Accept your invitation</h1>
        <p className={styles.pageDescription}>Choose the password you will sign in with.</p>
      </header>
      <AcceptInvitationForm token={(Array.isArray(token) ? token[0] : token) ?? ""} />
    </main>
  );
}

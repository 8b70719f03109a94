import type { Metadata } from "next";

import { SignInForm } from "@/components/console/shell/SignInForm";
import styles from "@/components/console/ui/layout.module.css";

export const metadata: Metadata = { title: "Sign in" };

interface SignInPageProps {
  searchParams: Promise<Record<string, string | string[] | undefined>>;
}

function first(value: string | string[] | undefined): string | undefined {
  return Array.isArray(value) ? value[0] : value;
}

/** Rendered on the server with ?next= and ?error=, so the form works before JavaScript does. */
export default async function SignInPage({ searchParams }: SignInPageProps) {
  const params = await searchParams;
  return (
    <main className={styles.narrow}>
      <header>
        <h1 className={styles.pageTitle}>Sign in to the console</h1>
        <p className={styles.pageDescription}>Use a staff account of this OpenGuru.</p>
      </header>
      <SignInForm next={first(params.next)} failed={first(params.error)} />
    </main>
  );
}

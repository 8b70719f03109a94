import type { Metadata } from "next";
import { Suspense } from "react";

import { SignInForm } from "@/components/console/shell/SignInForm";
import styles from "@/components/console/ui/layout.module.css";

export const metadata: Metadata = { title: "Sign in" };

export default function SignInPage() {
  return (
    <main className={styles.narrow}>
      <header>
        <h1 className={styles.pageTitle}>Sign in to the console</h1>
        <p className={styles.pageDescription}>Use a staff account of this OpenGuru.</p>
      </header>
      {/* The form reads ?next= from the address bar, which needs a Suspense boundary. */}
      <Suspense fallback={null}>
        <SignInForm />
      </Suspense>
    </main>
  );
}

import type { Metadata } from "next";

import { Notice } from "@/components/ui/Notice";
import { SignInForm } from "@/components/console/shell/SignInForm";
import formStyles from "@/components/console/ui/forms.module.css";
import styles from "@/components/console/ui/layout.module.css";
import { signInMethods } from "@/lib/auth/server";
import { failureMessage, safeNext } from "@/lib/auth/types";

export const metadata: Metadata = { title: "Sign in" };

interface SignInPageProps {
  searchParams: Promise<Record<string, string | string[] | undefined>>;
}

function first(value: string | string[] | undefined): string | undefined {
  return Array.isArray(value) ? value[0] : value;
}

/** Rendered on the server with ?next= and ?error=, so the form works before JavaScript does.
 * Django says which ways in there are: the password form, single sign-on, or both. */
export default async function SignInPage({ searchParams }: SignInPageProps) {
  const params = await searchParams;
  const methods = await signInMethods();
  const next = safeNext(first(params.next) ?? null);
  const failed = first(params.error);
  return (
    <main className={styles.narrow}>
      <header>
        <h1 className={styles.pageTitle}>Sign in to the console</h1>
        <p className={styles.pageDescription}>Use your account of this OpenGuru.</p>
      </header>
      {methods.sso ? (
        <p className={formStyles.actions}>
          <a
            href={`${methods.sso_url}?next=${encodeURIComponent(next)}`}
            className={`${formStyles.button} ${formStyles.primary}`}
            data-part="sso"
          >
            {methods.sso_label}
          </a>
        </p>
      ) : null}
      {methods.password ? <SignInForm next={next} failed={failed} /> : null}
      {!methods.password && failed ? (
        <Notice tone="error" title="Could not sign in">
          {failureMessage(failed)}
        </Notice>
      ) : null}
    </main>
  );
}

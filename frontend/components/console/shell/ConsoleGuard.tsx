"use client";

import { usePathname, useRouter } from "next/navigation";
import { useEffect, type ReactNode } from "react";

import { ErrorNotice, Loading } from "@/components/console/ui/Status";
import { useSession } from "@/lib/auth/hooks";
import { isAdmin, isConsoleUser, type Session } from "@/lib/auth/types";

import { ConsoleNav } from "./ConsoleNav";
import styles from "../ui/layout.module.css";

interface ConsoleGuardProps {
  children: ReactNode;
  /** What the server's sign-in check read (null when it could not ask). */
  initialSession: Session | null;
}

/** Every console page: Django's session decides; signed out goes to the sign-in page. The
 * server checks before the first render; this keeps watching (a sign-out in another tab). */
export function ConsoleGuard({ children, initialSession }: ConsoleGuardProps) {
  const { data: session, error } = useSession(initialSession);
  const router = useRouter();
  const pathname = usePathname();
  const signedOut = session !== undefined && !isConsoleUser(session);

  useEffect(() => {
    if (signedOut) router.replace(`/console/sign-in?next=${encodeURIComponent(pathname)}`);
  }, [signedOut, router, pathname]);

  if (error && !session) {
    return (
      <main className={styles.shell}>
        <ErrorNotice title="The console could not reach the API" error={error} />
      </main>
    );
  }
  if (!session || signedOut) {
    return (
      <main className={styles.shell}>
        <Loading what="your session" />
      </main>
    );
  }
  return (
    <div className={styles.shell}>
      <ConsoleNav username={session.user?.username ?? ""} admin={isAdmin(session)} />
      <main className={styles.main}>{children}</main>
    </div>
  );
}

/** `GET /api/auth/session/` and the login answer. */
export interface SessionUser {
  username: string;
  is_staff: boolean;
}

export interface Session {
  authenticated: boolean;
  user: SessionUser | null;
}

export function isConsoleUser(session: Session | undefined): boolean {
  return Boolean(session?.authenticated && session.user?.is_staff);
}

/** Days arrive as "YYYY-MM-DD" in the server's calendar: show them as written, never shifted
 * into the browser's time zone. */
export function shortDay(date: string): string {
  const day = new Date(`${date}T00:00:00Z`);
  return day.toLocaleDateString(undefined, { month: "short", day: "numeric", timeZone: "UTC" });
}

export function percentRange(start: number, end: number): string {
  return `${Math.round(start * 100)}–${Math.round(end * 100)}%`;
}

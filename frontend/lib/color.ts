/**
 * Guru colours come from an admin-editable text field and end up in inline styles; only plain
 * hex colours pass, so a stray value can never inject other CSS declarations.
 */
const HEX_COLOR = /^#(?:[0-9a-f]{3}|[0-9a-f]{4}|[0-9a-f]{6}|[0-9a-f]{8})$/i;

export function safeHexColor(value: string, fallback: string): string {
  return HEX_COLOR.test(value.trim()) ? value.trim() : fallback;
}

/** Saves a response body as a file: the browser's own download, named by Content-Disposition. */

export function filenameFrom(disposition: string | null, fallback: string): string {
  const star = disposition?.match(/filename\*=(?:UTF-8'')?([^;]+)/i);
  if (star?.[1]) return decodeURIComponent(star[1].trim().replace(/^"|"$/g, ""));
  const plain = disposition?.match(/filename="?([^";]+)"?/i);
  return plain?.[1]?.trim() || fallback;
}

export async function saveResponse(response: Response, fallback: string): Promise<string> {
  const name = filenameFrom(response.headers.get("Content-Disposition"), fallback);
  const url = URL.createObjectURL(await response.blob());
  const link = document.createElement("a");
  link.href = url;
  link.download = name;
  document.body.append(link);
  link.click();
  link.remove();
  // The click has handed the blob to the download by now; free it a moment later.
  setTimeout(() => URL.revokeObjectURL(url), 10_000);
  return name;
}

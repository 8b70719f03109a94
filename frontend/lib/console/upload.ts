/**
 * Multipart uploads through XMLHttpRequest: fetch reports no upload progress, XHR does.
 */
import { ApiError, csrfToken, errorFromBody } from "@/lib/api/client";

export interface UploadProgress {
  loaded: number;
  total: number;
}

export function uploadWithProgress<T>(
  path: string,
  form: FormData,
  onProgress: (progress: UploadProgress) => void,
): Promise<T> {
  return new Promise((resolve, reject) => {
    const xhr = new XMLHttpRequest();
    xhr.open("POST", path);
    xhr.withCredentials = true;
    xhr.responseType = "json";
    xhr.setRequestHeader("Accept", "application/json");
    xhr.setRequestHeader("X-CSRFToken", csrfToken());
    xhr.upload.onprogress = (event) => {
      if (event.lengthComputable) onProgress({ loaded: event.loaded, total: event.total });
    };
    xhr.onload = () => {
      const body: unknown = xhr.response;
      if (xhr.status >= 200 && xhr.status < 300) resolve(body as T);
      else reject(errorFromBody(xhr.status, body));
    };
    xhr.onerror = () => reject(new ApiError(0, "unreachable", "The upload failed."));
    xhr.send(form);
  });
}

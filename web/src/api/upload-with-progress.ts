// A multipart upload that reports how much of it has been sent: fetch cannot tell, XMLHttpRequest
// can. Same headers as every other request (CSRF, the active environment) and the same 401 signal;
// an error answer comes back as an ApiProblem.
import { signalUnauthorized } from './client.ts';
import { csrfHeaders } from './csrf.ts';
import { environmentHeaders } from './environment.ts';
import { networkProblem, problemOf } from './problem.ts';

export interface UploadProgress {
  /** Bytes sent so far and in all; `sent === total` once the server has the whole body and is working. */
  sent: number;
  total: number;
}

/** Posts `form` to `path`; `onProgress` hears of each chunk sent. Resolves to the JSON answer. */
export function uploadWithProgress<T>(path: string, form: FormData, onProgress: (p: UploadProgress) => void, signal?: AbortSignal): Promise<T> {
  return new Promise<T>((resolve, reject) => {
    const xhr = new XMLHttpRequest();
    xhr.open('POST', path);
    xhr.withCredentials = true;
    xhr.responseType = 'text';
    for (const [name, value] of Object.entries({ ...environmentHeaders(), ...csrfHeaders() })) xhr.setRequestHeader(name, value);
    xhr.upload.onprogress = (e) => onProgress({ sent: e.loaded, total: e.lengthComputable ? e.total : e.loaded });
    xhr.onerror = () => reject(networkProblem());
    xhr.onabort = () => reject(new DOMException('The upload was stopped', 'AbortError'));
    xhr.onload = () => {
      let body: unknown;
      try {
        body = JSON.parse(xhr.responseText);
      } catch {
        body = undefined;
      }
      if (xhr.status === 401) signalUnauthorized();
      if (xhr.status >= 200 && xhr.status < 300) resolve(body as T);
      else reject(problemOf(xhr.status, body, xhr.getResponseHeader('Retry-After')));
    };
    signal?.addEventListener('abort', () => xhr.abort(), { once: true });
    xhr.send(form);
  });
}

import { request } from 'node:http';

export interface RawAnswer {
  status: number;
  headers: Record<string, string | string[] | undefined>;
  body: string;
}

/** A GET with exactly the headers given (Host included), as a hostile page or tool could send. */
export function rawGet(url: string, headers: Record<string, string> = {}): Promise<RawAnswer> {
  return rawRequest('GET', url, headers);
}

/** A request of any method (TRACE, PROPFIND …) with exactly the headers given. */
export function rawRequest(method: string, url: string, headers: Record<string, string> = {}): Promise<RawAnswer> {
  return new Promise((resolve, reject) => {
    const sent = request(url, { method, headers }, (response) => {
      let body = '';
      response.on('data', (chunk) => (body += String(chunk)));
      response.on('end', () => resolve({ status: response.statusCode ?? 0, headers: response.headers, body }));
    });
    sent.on('error', reject);
    sent.end();
  });
}

/**
 * A small HTTP client for the sandbox conformance tests: real requests over the loopback,
 * with the headers the spec asks for, and the answer read as both text and JSON so a test
 * can compare error bodies byte for byte.
 */
import { request as httpRequest } from 'node:http';
import type { Sandbox } from '../../../sandbox';

export const DEMO_KEY = 'demo-key';

export interface Reply {
  status: number;
  headers: Headers;
  /** The body exactly as sent. */
  text: string;
  /** The body parsed as JSON (`undefined` when it is not JSON). */
  body: any;
}

export interface CallOptions {
  /** Sent as `Authorization: Bearer <key>`; `null` sends no Authorization header. */
  key?: string | null;
  /** Serialised as JSON with `Content-Type: application/json`. */
  json?: unknown;
  headers?: Record<string, string>;
}

export async function call(
  sandbox: Pick<Sandbox, 'url'>,
  method: string,
  path: string,
  options: CallOptions = {},
): Promise<Reply> {
  const key = options.key === undefined ? DEMO_KEY : options.key;
  const headers: Record<string, string> = { accept: 'application/json', ...options.headers };
  if (key !== null) headers.authorization = `Bearer ${key}`;
  let body: string | undefined;
  if (options.json !== undefined) {
    body = JSON.stringify(options.json);
    headers['content-type'] ??= 'application/json';
  }
  const response = await fetch(`${sandbox.url}${path}`, { method, headers, body });
  const text = await response.text();
  return { status: response.status, headers: response.headers, text, body: parseJson(text) };
}

export const get = (sandbox: Pick<Sandbox, 'url'>, path: string, options?: CallOptions) =>
  call(sandbox, 'GET', path, options);
export const post = (sandbox: Pick<Sandbox, 'url'>, path: string, json: unknown, options?: CallOptions) =>
  call(sandbox, 'POST', path, { ...options, json });
export const put = (sandbox: Pick<Sandbox, 'url'>, path: string, json: unknown, options?: CallOptions) =>
  call(sandbox, 'PUT', path, { ...options, json });

export interface RawRequest {
  method: string;
  path: string;
  headers?: Record<string, string>;
  /** Sent exactly as given, whatever the Content-Type says. */
  body?: string | Buffer;
}

export interface RawReply {
  status: number;
  headers: Record<string, string | string[] | undefined>;
  text: string;
  body: any;
}

/**
 * A request with full control over the bytes sent (a body that does not match its
 * Content-Type, an oversized body), through `node:http` rather than fetch, which would
 * otherwise fix such requests up.
 */
export function rawRequest(sandbox: Pick<Sandbox, 'url'>, raw: RawRequest): Promise<RawReply> {
  const url = new URL(raw.path, sandbox.url);
  const headers: Record<string, string | number> = {
    accept: 'application/json',
    authorization: `Bearer ${DEMO_KEY}`,
    ...raw.headers,
  };
  if (raw.body !== undefined) headers['content-length'] = Buffer.byteLength(raw.body);
  return new Promise((resolve, reject) => {
    const req = httpRequest(
      {
        host: url.hostname,
        port: url.port,
        path: `${url.pathname}${url.search}`,
        method: raw.method,
        headers,
        agent: false,
      },
      (res) => {
        const chunks: Buffer[] = [];
        res.on('data', (chunk: Buffer) => chunks.push(chunk));
        res.on('error', reject);
        res.on('end', () => {
          const text = Buffer.concat(chunks).toString('utf8');
          resolve({ status: res.statusCode ?? 0, headers: res.headers, text, body: parseJson(text) });
        });
      },
    );
    req.on('error', reject);
    if (raw.body !== undefined) req.write(raw.body);
    req.end();
  });
}

function parseJson(text: string): any {
  try {
    return JSON.parse(text);
  } catch {
    return undefined;
  }
}

/** Every customer the search returns, page by page (100 a page), in the service's order. */
export async function allCustomers(sandbox: Pick<Sandbox, 'url'>, query = ''): Promise<any[]> {
  const customers: any[] = [];
  for (let page = 1; ; page++) {
    const reply = await get(sandbox, `/v1/customers?per_page=100&page=${page}${query ? `&${query}` : ''}`);
    if (reply.status !== 200) throw new Error(`search page ${page} answered ${reply.status}: ${reply.text}`);
    customers.push(...reply.body.data);
    if (page >= reply.body.meta.last_page) return customers;
  }
}

/** The query string for an exact phone search. */
export const byPhone = (phone: string, countryCode?: string) =>
  `phone=${encodeURIComponent(phone)}${countryCode ? `&country_code=${countryCode}` : ''}`;

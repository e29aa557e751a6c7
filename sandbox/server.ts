import Fastify, { type FastifyInstance, type FastifyReply, type FastifyRequest } from 'fastify';
import { answerWriter, type Dialect } from './dialect';
import { invalid, ServiceError } from './errors';
import type { FaultDecision, FaultSwitches } from './faults';
import type { ProgramRecord } from './model';
import { registerRoutes, type Answer, type Route } from './routes';
import type { LoyaltyStore } from './store';

/** Request bodies larger than this are refused with 413: no legitimate request comes close. */
export const BODY_LIMIT_BYTES = 16 * 1024;

export interface ServerOptions {
  store: LoyaltyStore;
  /** API key -> the programme it earns on. */
  programsByKey: Map<string, ProgramRecord>;
  faults: FaultSwitches;
  /** The service's clock: its `Date` header says this time, as `redeemed_at` does. */
  now?: () => Date;
  /** How answers are written (`dialect.ts`); requests are read the same way in every dialect. */
  dialect?: Dialect;
}

/** `If-None-Match` lists the tag (weak comparison, as RFC 9110 13.1.2 asks for GET), or is `*`. */
function matchesIfNoneMatch(header: string | string[] | undefined, tag: string): boolean {
  if (header === undefined) return false;
  const listed = (Array.isArray(header) ? header.join(',') : header)
    .split(',')
    .map((item) => item.trim().replace(/^W\//, ''));
  return listed.some((item) => item === '*' || item === tag);
}

declare module 'fastify' {
  interface FastifyRequest {
    program: ProgramRecord | null;
    /** A fault drawn for this request that strikes after the work (the route wrapper's), or 'none'. */
    fault: FaultDecision;
  }
}

export function buildServer({
  store,
  programsByKey,
  faults,
  now = () => new Date(),
  dialect = 'spec',
}: ServerOptions): FastifyInstance {
  const app = Fastify({ logger: false, bodyLimit: BODY_LIMIT_BYTES, forceCloseConnections: true });
  // Every body the service sends, success or error, is written by the dialect's writer.
  const writer = answerWriter(dialect, store.records);
  const sendError = (reply: FastifyReply, error: ServiceError) => reply.code(error.status).send(writer.error(error));
  // A real service's Date header and its timestamps come from the same clock.
  app.addHook('onSend', async (_request, reply) => {
    reply.header('date', now().toUTCString());
  });
  // A new connection is reset before any of it is read; a kept-alive one on its next request.
  app.server.on('connection', (socket) => {
    if (faults.resetOnConnect()) socket.resetAndDestroy();
  });
  // Fastify reads text/plain by default; the spec's bodies are JSON only, so anything else is a 415.
  app.removeContentTypeParser('text/plain');
  app.decorateRequest('program', null);
  app.decorateRequest('fault', 'none');

  app.addHook('onRequest', async (request, reply) => {
    if (faults.resetOnConnect()) {
      // Before the body is read, with a reset rather than a close.
      reply.hijack();
      request.raw.socket.resetAndDestroy();
      return reply;
    }
    const { latencyMs, retryAfterSeconds } = faults.current();
    if (latencyMs > 0) await new Promise((resolve) => setTimeout(resolve, latencyMs));
    const decision = faults.decide();
    switch (decision) {
      case 'drop':
        reply.hijack();
        request.raw.socket.destroy();
        return reply;
      case 'error':
        return sendError(reply, new ServiceError(500, 'server_error', 'Injected server error.'));
      case 'rate_limit':
        reply.header('retry-after', faults.current().retryAfterHeader ?? String(retryAfterSeconds));
        return sendError(reply, new ServiceError(429, 'rate_limited', 'Too many requests.'));
      case 'commit_then_drop':
      case 'commit_then_error':
      case 'commit_then_garble':
        request.fault = decision;
        break;
      case 'none':
        break;
    }
    request.program = programsByKey.get(bearerKey(request.headers.authorization) ?? '') ?? null;
    if (!request.program) {
      reply.header('www-authenticate', 'Bearer');
      return sendError(reply, new ServiceError(401, 'unauthorized', 'A valid API key is required.'));
    }
    if (request.method === 'POST' && request.url.split('?')[0] === '/v1/rewards/redeem' && faults.refuseRedeem()) {
      return sendError(reply, invalid({ reward_code: ['The reward code is not valid.'] }));
    }
    return undefined;
  });

  app.setErrorHandler((error: Error & { statusCode?: number; code?: string }, _request, reply) =>
    sendError(reply, asServiceError(error)),
  );

  app.setNotFoundHandler((_request, reply) =>
    sendError(reply, new ServiceError(404, 'not_found', 'There is no such endpoint.')),
  );

  /** The body of a successful answer, in the dialect. */
  const successBody = (request: FastifyRequest, { message, data, meta }: Answer) =>
    writer.success(
      { message, data: typeof data === 'function' ? (data as () => unknown)() : data, meta },
      requestUrl(request),
    );

  /** Wraps a route: answers in the dialect, and honours the faults that strike after the work. */
  const route: Route =
    (handler: (request: FastifyRequest) => Promise<Answer>) => async (request: FastifyRequest, reply: FastifyReply) => {
      let answer: Answer | undefined;
      let failure: unknown;
      try {
        answer = await handler(request);
      } catch (error) {
        failure = error;
      }
      // The work is done (a redemption committed) or refused; these faults spoil only the answer.
      switch (request.fault) {
        case 'commit_then_drop':
          reply.hijack();
          request.raw.socket.destroy();
          return reply;
        case 'commit_then_error':
          return sendError(reply, new ServiceError(503, 'server_error', 'Injected server error after the work.'));
        case 'commit_then_garble':
          return sendGarbled(reply, answer ? successBody(request, answer) : writer.error(asServiceError(failure)));
        default:
          break;
      }
      if (!answer) throw failure;
      if (answer.tag !== undefined) {
        const tag = `"${answer.tag}"`;
        reply.header('etag', tag);
        if (matchesIfNoneMatch(request.headers['if-none-match'], tag)) return reply.code(304).send();
      }
      return reply.code(answer.status ?? 200).send(successBody(request, answer));
    };

  registerRoutes(app, store, route);
  return app;
}

function bearerKey(header: string | undefined): string | null {
  const match = /^Bearer\s+(\S+)\s*$/i.exec(header ?? '');
  return match?.[1] ?? null;
}

/**
 * The "commit then garble" answer: a 200 that says JSON and carries only the first half of
 * the answer's JSON text, as a worker that dies while writing its output leaves it behind a
 * proxy that still ends the response cleanly. It never parses: an object's text ends only at
 * its last `}`.
 */
function sendGarbled(reply: FastifyReply, body: unknown) {
  const text = JSON.stringify(body);
  return reply
    .code(200)
    .type('application/json; charset=utf-8')
    .send(text.slice(0, Math.ceil(text.length / 2)));
}

/** The request's own URL (the paginator's links start from it), read from its Host header as a framework would. */
function requestUrl(request: FastifyRequest): URL {
  return URL.parse(request.url, `${request.protocol}://${request.host}`) ?? new URL(request.url, 'http://localhost');
}

function asServiceError(error: unknown): ServiceError {
  return error instanceof ServiceError
    ? error
    : frameworkError(error as Error & { statusCode?: number; code?: string });
}

/** Errors raised by the framework itself (body parsing, limits) in the sandbox's own terms. */
function frameworkError(error: Error & { statusCode?: number; code?: string }): ServiceError {
  switch (error.statusCode) {
    case 400:
      return error.code === 'FST_ERR_CTP_EMPTY_JSON_BODY' ||
        error.code === 'FST_ERR_CTP_INVALID_JSON_BODY' ||
        error instanceof SyntaxError
        ? new ServiceError(400, 'malformed_json', 'The body is not valid JSON.')
        : new ServiceError(400, 'bad_request', 'The request could not be read.');
    case 413:
      return new ServiceError(413, 'payload_too_large', `The body is larger than ${BODY_LIMIT_BYTES} bytes.`);
    case 415:
      return new ServiceError(415, 'unsupported_media_type', 'Send the body as application/json.');
    default:
      return new ServiceError(500, 'server_error', 'Something went wrong on the service.');
  }
}

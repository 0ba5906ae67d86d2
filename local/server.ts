import { AsyncLocalStorage } from 'node:async_hooks';
import { randomUUID } from 'node:crypto';
import { createServer, STATUS_CODES, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { Duplex } from 'node:stream';
import { promisify } from 'node:util';
import { gunzip, gzip } from 'node:zlib';
import {
  FUNCTION_TIMEOUT_SECONDS,
  gatewayAnswerResponse,
  headerValue,
  MAX_EDGE_BODY_BYTES,
  MAX_URL_CHARS,
  MIN_COMPRESSION_BYTES,
  type EdgeResponse,
  type GatewayAnswerId,
} from '../shared/api/gateway-edge';
import { createGateway, type GatewayOptions } from './gateway';

/**
 * The HTTP front of the local gateway (npm start, the contract tests, the throughput benchmark). No
 * request can take it down, and every request is answered in the API's error body
 * `{"error":{"code","message","requestId"}}` (from the table of shared/api/gateway-edge.ts) or, when the
 * client is gone, its socket is closed:
 * - query parameters are held in objects whose keys cannot collide with object built-ins
 *   (`?constructor=1`, `?__proto__=1`);
 * - a request line Node accepts but no URL parser does (`GET http://[ HTTP/1.1`): 400;
 * - what Node's HTTP parser refuses (`clientError`): 431 for headers over Node's limit, 414 when the
 *   request line alone is over it, 408 when the headers or the body come too slowly (headersTimeout,
 *   requestTimeout), 400 for the rest (unknown method, a header name with a space, ...). These are answers
 *   API Gateway gives through its DEFAULT_4XX response: its status and message, code VALIDATION_ERROR;
 * - a client that closes the connection halfway through its body: nothing to answer, nothing thrown;
 * - a handler that does not answer within the time limit (29 s): 502, as API Gateway answers a function that timed out;
 * - a gzip request body (Content-Encoding: gzip) is decompressed before the handler sees it, as API Gateway does;
 * - an error thrown outside any promise chain while serving a request (a timer, an event handler) or a
 *   rejection nobody handles: with guardProcess() installed (npm start does), that request's 500, logged
 *   under its request id; the process keeps running.
 * Responses of at least MIN_COMPRESSION_BYTES are gzip-compressed when the client accepts gzip, as API
 * Gateway does with the API's minimumCompressionSize.
 */
export interface LocalServerOptions extends GatewayOptions {
  /** Time to receive a request's headers (Node's headersTimeout); 408 after it. Default 10 s. */
  headersTimeoutMs?: number;
  /** Time to receive a whole request, body included (Node's requestTimeout); 408 after it. Default 30 s. */
  requestTimeoutMs?: number;
  /** Time the handler has to answer (API Gateway's integration timeout); 504 after it. Default 29 s. */
  integrationTimeoutMs?: number;
}

export const DEFAULT_HEADERS_TIMEOUT_MS = 10_000;
export const DEFAULT_REQUEST_TIMEOUT_MS = 30_000;
/** What API Gateway answers when the Lambda function timed out (an integration failure, through DEFAULT_5XX). */
export const LAMBDA_TIMEOUT_STATUS = 502;
/**
 * How long a request's handler may run: the functions' own timeout (FUNCTION_TIMEOUT_SECONDS, the CDK
 * value), which a deployed function meets before API Gateway REST's 29 s integration timeout.
 */
export const INTEGRATION_TIMEOUT_MS = FUNCTION_TIMEOUT_SECONDS * 1000;

/** The request being served, for errors that escape it (guardProcess). */
interface InFlight {
  requestId: string;
  res: ServerResponse;
}
const inFlight = new AsyncLocalStorage<InFlight>();

/** Sockets answered directly (parser errors, timeouts): nothing more is written to them. */
const answeredRaw = new WeakSet<Duplex>();

/** The client closed the connection before its body arrived: nobody is left to answer. */
class ClientGone extends Error {
  constructor() {
    super('the client closed the connection before sending its whole body');
    this.name = 'ClientGone';
  }
}

/** A gzip body decompressed, at most MAX_EDGE_BODY_BYTES of it (a small body cannot inflate past the edge's bound). */
async function gunzipBody(raw: Buffer): Promise<string | 'too-large' | 'bad-gzip'> {
  try {
    return (await gunzipAsync(raw, { maxOutputLength: MAX_EDGE_BODY_BYTES })).toString('utf8');
  } catch (err) {
    return (err as NodeJS.ErrnoException).code === 'ERR_BUFFER_TOO_LARGE' || err instanceof RangeError ? 'too-large' : 'bad-gzip';
  }
}

function readBody(req: IncomingMessage): Promise<Buffer | 'too-large'> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    let size = 0;
    let tooLarge = false;
    req.on('data', (c: Buffer) => {
      if (tooLarge) return;
      size += c.length;
      if (size > MAX_EDGE_BODY_BYTES) {
        tooLarge = true;
        chunks.length = 0;
        resolve('too-large');
        return;
      }
      chunks.push(c);
    });
    req.on('end', () => resolve(Buffer.concat(chunks)));
    // 'error' (aborted) or 'close' before 'end': the client went away. A settled promise ignores both.
    req.on('error', () => reject(new ClientGone()));
    req.on('close', () => {
      if (!req.complete) reject(new ClientGone());
    });
  });
}

/** Parsed query parameters as own properties only (as JSON.parse builds API Gateway's event): no key reaches a built-in. */
function queryOf(url: URL): Record<string, string[]> {
  const query = new Map<string, string[]>();
  for (const [k, v] of url.searchParams) {
    const list = query.get(k);
    if (list) list.push(v);
    else query.set(k, [v]);
  }
  return Object.fromEntries(query);
}

/** Whether the client accepts gzip (Accept-Encoding: gzip or *, with a q-value above 0). */
export function acceptsGzip(acceptEncoding: string | undefined): boolean {
  if (!acceptEncoding) return false;
  let gzipQ: number | undefined;
  let anyQ: number | undefined;
  for (const part of acceptEncoding.split(',')) {
    const [coding = '', ...params] = part.trim().toLowerCase().split(';');
    const qParam = params.map((p) => p.trim()).find((p) => p.startsWith('q='));
    const q = qParam ? Number(qParam.slice(2)) : 1;
    const value = Number.isFinite(q) ? q : 0;
    if (coding.trim() === 'gzip' || coding.trim() === 'x-gzip') gzipQ = value;
    else if (coding.trim() === '*') anyQ = value;
  }
  return (gzipQ ?? anyQ ?? 0) > 0;
}

const gzipAsync = promisify(gzip);
const gunzipAsync = promisify(gunzip);

/** One answer per request: a second one (a late handler after a 500 or 504) is dropped. */
async function send(req: IncomingMessage, res: ServerResponse, out: EdgeResponse): Promise<void> {
  if (res.headersSent || res.writableEnded || answeredRaw.has(res.socket as Duplex) || res.socket?.destroyed) return;
  // A binary answer (isBase64Encoded) goes out decoded, as API Gateway sends it for a binary media type.
  let body: Buffer = Buffer.from(out.body, out.isBase64Encoded ? 'base64' : 'utf8');
  const headers: Record<string, string> = { ...out.headers };
  if (body.length >= MIN_COMPRESSION_BYTES && headerValue(headers, 'content-encoding') === undefined && acceptsGzip(req.headers['accept-encoding'])) {
    body = await gzipAsync(body);
    headers['Content-Encoding'] = 'gzip';
    if (res.headersSent || res.writableEnded) return;
  }
  res.writeHead(out.status, { ...headers, 'Content-Length': String(body.length) }).end(body);
}

/** An answer written straight to a socket (no request object: Node's parser refused the request). */
function answerSocket(socket: Duplex, id: GatewayAnswerId, status: number | undefined, gatewayMessage: string | undefined): void {
  const out = gatewayAnswerResponse(id, randomUUID(), gatewayMessage);
  const code = status ?? out.status;
  const head = [`HTTP/1.1 ${code} ${STATUS_CODES[code] ?? 'Error'}`, ...Object.entries(out.headers).map(([k, v]) => `${k}: ${v}`)];
  head.push(`Content-Length: ${Buffer.byteLength(out.body)}`, 'Connection: close');
  answeredRaw.add(socket);
  socket.end(`${head.join('\r\n')}\r\n\r\n${out.body}`);
  // The client may still be sending (a 100 KB header): keep reading a moment so the answer is not lost to a reset.
  setTimeout(() => socket.destroy(), 2000).unref();
}

/** What Node's parser refused, answered as API Gateway's DEFAULT_4XX would (its status and message). */
function parserAnswer(err: NodeJS.ErrnoException & { rawPacket?: Buffer }): { id: GatewayAnswerId; status?: number; message?: string } {
  switch (err.code) {
    case 'HPE_HEADER_OVERFLOW': {
      // The request line alone is over the limit: the URL is too long (API Gateway's 414).
      const raw = err.rawPacket?.subarray(0, MAX_URL_CHARS + 64).toString('latin1') ?? '';
      const lineEnd = raw.indexOf('\r\n');
      if (/^[A-Z]+ /.test(raw) && (lineEnd === -1 || lineEnd > MAX_URL_CHARS)) return { id: 'URI_TOO_LONG' };
      return { id: 'DEFAULT_4XX', status: 431, message: 'Request header fields too large' };
    }
    case 'ERR_HTTP_REQUEST_TIMEOUT':
      return { id: 'DEFAULT_4XX', status: 408, message: 'Request timeout: the request was not received in time' };
    case 'HPE_INVALID_METHOD':
      return { id: 'DEFAULT_4XX', message: 'Bad request: unknown method' };
    case 'HPE_INVALID_HEADER_TOKEN':
      return { id: 'DEFAULT_4XX', message: 'Bad request: invalid header' };
    case 'HPE_INVALID_URL':
      return { id: 'DEFAULT_4XX', message: 'Bad request: invalid URL' };
    default:
      return { id: 'DEFAULT_4XX', message: 'Bad request' };
  }
}

export function createLocalServer(opts: LocalServerOptions = {}): Server {
  const gateway = createGateway(opts);
  const integrationTimeoutMs = opts.integrationTimeoutMs ?? INTEGRATION_TIMEOUT_MS;

  const serve = async (req: IncomingMessage, res: ServerResponse, requestId: string): Promise<void> => {
    let url: URL;
    try {
      url = new URL(req.url ?? '/', 'http://localhost');
    } catch {
      req.resume();
      return send(req, res, gatewayAnswerResponse('DEFAULT_4XX', requestId, 'Bad request: invalid URL'));
    }
    const raw = await readBody(req);
    if (raw === 'too-large') return send(req, res, gatewayAnswerResponse('REQUEST_TOO_LARGE', requestId));
    // API Gateway decompresses a gzip request body (the API has compression on): the handler gets the JSON.
    const gzipped =
      String(req.headers['content-encoding'] ?? '')
        .trim()
        .toLowerCase() === 'gzip';
    const body = gzipped ? await gunzipBody(raw) : raw.toString('utf8');
    if (body === 'too-large') return send(req, res, gatewayAnswerResponse('REQUEST_TOO_LARGE', requestId));
    if (body === 'bad-gzip') return send(req, res, gatewayAnswerResponse('DEFAULT_4XX', requestId, 'Bad request: the body is not valid gzip'));
    // Each header line as sent (Node joins repeated ones): the gateway builds headers / multiValueHeaders from them, as API Gateway does.
    const headers: Record<string, string | string[]> = { ...req.headersDistinct } as Record<string, string[]>;
    if (gzipped) delete headers['content-encoding'];
    // API Gateway always adds X-Forwarded-Proto; the local server is plain HTTP.
    headers['x-forwarded-proto'] ??= 'http';
    let timer: NodeJS.Timeout | undefined;
    const timedOut = new Promise<EdgeResponse>((resolve) => {
      // In AWS every API function's own timeout (10 s at most) ends a slow handler before API Gateway's 29 s, and
      // API Gateway answers a Lambda that timed out 502 (DEFAULT_5XX): the local answer is that one, never a 504.
      timer = setTimeout(() => resolve({ ...gatewayAnswerResponse('DEFAULT_5XX', requestId), status: LAMBDA_TIMEOUT_STATUS }), integrationTimeoutMs);
    });
    try {
      const out = await Promise.race([
        gateway.handle({ method: req.method ?? 'GET', path: url.pathname, query: queryOf(url), headers, body, sourceIp: req.socket.remoteAddress ?? '127.0.0.1', requestId }),
        timedOut,
      ]);
      await send(req, res, out);
    } finally {
      clearTimeout(timer);
    }
  };

  const server = createServer(
    {
      headersTimeout: opts.headersTimeoutMs ?? DEFAULT_HEADERS_TIMEOUT_MS,
      requestTimeout: opts.requestTimeoutMs ?? DEFAULT_REQUEST_TIMEOUT_MS,
      // how often Node checks those two timeouts (default 30 s)
      connectionsCheckingInterval: Math.min(1000, opts.headersTimeoutMs ?? DEFAULT_HEADERS_TIMEOUT_MS),
    },
    (req, res) => {
      const requestId = randomUUID();
      inFlight.run({ requestId, res }, () => {
        serve(req, res, requestId).catch((err: unknown) => {
          if (err instanceof ClientGone) {
            console.warn(`local server: ${req.method} ${req.url}: ${err.message} (request ${requestId})`);
            return;
          }
          // The gateway answers its own and the handlers' failures; this is the server's own code failing.
          console.error(`local server: request ${requestId} failed`, err);
          void send(req, res, gatewayAnswerResponse('DEFAULT_5XX', requestId)).catch(() => res.destroy());
        });
      });
    },
  );

  server.on('clientError', (err: NodeJS.ErrnoException & { rawPacket?: Buffer }, socket: Duplex) => {
    // Answer once; a socket that is gone, answered already, or halfway through a response is only closed.
    const inResponse = (socket as Duplex & { _httpMessage?: ServerResponse })._httpMessage?.headersSent === true;
    if (err.code === 'ECONNRESET' || !socket.writable || answeredRaw.has(socket) || inResponse) {
      socket.destroy();
      return;
    }
    const { id, status, message } = parserAnswer(err);
    answerSocket(socket, id, status, message);
  });

  // CONNECT (a proxy tunnel) is not a route of the API: 404, as for any path no route matches. (Without a
  // listener Node would drop the connection; Upgrade requests, having no listener, are served as requests.)
  server.on('connect', (_req: IncomingMessage, socket: Duplex) => {
    socket.on('error', () => socket.destroy());
    answerSocket(socket, 'MISSING_AUTHENTICATION_TOKEN', undefined, undefined);
  });
  return server;
}

/**
 * Keeps the process alive through errors nobody caught: one thrown in a timer or an event handler while
 * a request was being served, or a rejection nobody handled, becomes that request's 500
 * (INTERNAL_ERROR with its request id) and is logged under the request id; one outside any request is
 * logged. For the process that runs the server (npm start); jest and other hosts keep their own handlers.
 */
export function guardProcess(): void {
  const onEscape = (kind: string) => (err: unknown) => {
    const current = inFlight.getStore();
    if (!current) {
      console.error(`local server: ${kind} outside any request (the server keeps running)`, err);
      return;
    }
    console.error(`local server: ${kind} while serving request ${current.requestId}; answered 500`, err);
    const { res, requestId } = current;
    const out = gatewayAnswerResponse('DEFAULT_5XX', requestId);
    if (res.headersSent || res.writableEnded) return;
    try {
      res.writeHead(out.status, { ...out.headers, 'Content-Length': String(Buffer.byteLength(out.body)) }).end(out.body);
    } catch {
      res.destroy();
    }
  };
  process.on('uncaughtException', onEscape('uncaught exception'));
  process.on('unhandledRejection', onEscape('unhandled rejection'));
}

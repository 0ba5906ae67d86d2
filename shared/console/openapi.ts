import { ERROR_STATUS, type ErrorCode } from '../api/errors';
import { buildDocument, Components, type Json } from '../api/kernel/openapi';
import { errorSchema } from '../api/schemas';
import type { ConsoleRoute } from './route-table';
import { consoleIdempotencyApplies } from './idempotency';

/**
 * The console API's own OpenAPI 3.0 document (GET /console/api/openapi.json), generated from the console
 * route table (given by shared/console/routes.ts, which this module does not import: no cycle) by the
 * kernel's builder (shared/api/kernel/openapi.ts); the integration document (/v1/openapi.json) does not
 * list these routes.
 */
const ERRORS: Array<[ErrorCode, string]> = [
  ['VALIDATION_ERROR', 'Bad input: details name each field'],
  ['UNAUTHORIZED', 'No valid sign-in token (an API key is refused here)'],
  ['FORBIDDEN', 'The role may not do this: details [{ reason: "ROLE", required }]; or the per-person rate limit: [{ reason: "RATE_LIMITED", ... }]'],
  ['NOT_FOUND', 'Not a member of this workspace, or no such record in it'],
  ['IDEMPOTENCY_KEY_REUSED', 'This Idempotency-Key was used with another path or body'],
  ['CONFLICT', "The last owner, the 500-active-key bound, an existing member, a revoked key, an invoice's status or what it cannot be made from"],
  ['INTERNAL_ERROR', 'Unexpected failure (request id only)'],
  ['SERVICE_UNAVAILABLE', 'Retry after Retry-After'],
];

function errorsFor(r: ConsoleRoute): Record<string, Json> {
  const codes = ERRORS.filter(([code]) => {
    if (r.access === null) return code === 'INTERNAL_ERROR';
    if (code === 'VALIDATION_ERROR') return !!(r.body || r.query || r.params);
    if (code === 'NOT_FOUND') return r.access !== 'person';
    if (code === 'CONFLICT') return !!r.conflict || consoleIdempotencyApplies(r);
    if (code === 'IDEMPOTENCY_KEY_REUSED') return consoleIdempotencyApplies(r);
    return true;
  });
  return Object.fromEntries(
    codes.map(([code, description]) => [String(ERROR_STATUS[code]), { description, content: { 'application/json': { schema: { $ref: '#/components/schemas/Error' } } } }]),
  );
}

const IDEMPOTENCY_PARAMETER: Json = {
  name: 'Idempotency-Key',
  in: 'header',
  required: false,
  description:
    'A fresh key per form submission (1-255 printable ASCII characters, e.g. a UUID): for 24 hours a repeat by the same person with the same key, path and body gets the first answer again (with Idempotent-Replayed: true) and changes nothing; the same key with another path or body is 422 IDEMPOTENCY_KEY_REUSED; a repeat while the first still runs is 409 with Retry-After. A replayed answer never carries a new API key again (key: null).',
  schema: { type: 'string', minLength: 1, maxLength: 255 },
};
const REPLAYED_RESPONSE_HEADER: Json = {
  'Idempotent-Replayed': { description: '`true` on an answer replayed for a repeated Idempotency-Key', schema: { type: 'string', enum: ['true'] } },
};

export function buildConsoleOpenApi(consoleRouteList: ReadonlyArray<ConsoleRoute & { id: string }>, serverUrl?: string): Json {
  const components = new Components();
  components.schemas.Error = components.schema(errorSchema, 'output');
  const operation = (r: ConsoleRoute & { id: string }): Json => ({
    operationId: r.id,
    summary: r.summary,
    ...(r.description || r.access !== null
      ? { description: [r.description, r.access === null ? '' : r.access === 'person' ? 'Any signed-in person.' : `Least role: ${r.access}.`].filter(Boolean).join(' ') }
      : {}),
    tags: [r.tag],
    ...(r.access === null ? { security: [] } : {}),
    parameters: [
      ...components.parameters(r.params, 'path', false),
      ...components.parameters(r.query, 'query', false),
      ...(consoleIdempotencyApplies(r) ? [IDEMPOTENCY_PARAMETER] : []),
    ],
    ...(r.body ? { requestBody: { required: !r.bodyOptional, content: { 'application/json': { schema: components.schema(r.body, 'input') } } } } : {}),
    responses: {
      [String(r.successStatus)]: {
        description: r.secret ? 'OK (carries a secret: Cache-Control: no-store)' : 'OK',
        ...(consoleIdempotencyApplies(r) ? { headers: REPLAYED_RESPONSE_HEADER } : {}),
        content: r.produces
          ? { [r.produces.split(';')[0]!]: { schema: { type: 'string', ...(r.produces.startsWith('application/pdf') ? { format: 'binary' } : {}) } } }
          : { 'application/json': { schema: components.schema(r.response, 'output') } },
      },
      ...(r.accepted
        ? {
            '202': {
              description: 'Accepted: the work goes on in later requests (the body says how far it is)',
              content: { 'application/json': { schema: components.schema(r.accepted, 'output') } },
            },
          }
        : {}),
      ...errorsFor(r),
    },
  });
  return buildDocument(consoleRouteList, operation, (paths) => ({
    openapi: '3.0.3',
    info: {
      title: 'Time-tracking console API',
      version: '1.0.0',
      description:
        "The API behind the console page (GET /console): a workspace's API keys, members, audit log and invoices, for its people. Authenticated by the OpenID Connect ID token of a person (Authorization: Bearer), never by an API key. The integration API is described at /v1/openapi.json.",
    },
    ...(serverUrl ? { servers: [{ url: serverUrl }] } : {}),
    security: [{ personToken: [] }],
    tags: [...new Set(consoleRouteList.map((r) => r.tag))].map((name) => ({ name })),
    paths,
    components: {
      securitySchemes: {
        personToken: { type: 'http', scheme: 'bearer', bearerFormat: 'JWT', description: 'The ID token the OpenID Provider issued to the console (Cognito in AWS)' },
      },
      schemas: components.schemas,
    },
  }));
}

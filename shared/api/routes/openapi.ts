import * as z from 'zod/mini';
import { meta } from '../../domain/fields';
import * as s from '../schemas';
import { lazyRoutes, type RouteDef } from './define';

/** The OpenAPI document itself (GET /v1/openapi.json). */
const jsonObject = (description: string, example: unknown) => ({ type: 'object', description, example });
export const openApiDocumentSchema = meta(
  z.custom<Record<string, unknown>>((v) => typeof v === 'object' && v !== null && !Array.isArray(v)),
  {
    description: 'An OpenAPI 3.0 document',
    type: 'object',
    required: ['openapi', 'info', 'paths'],
    additionalProperties: false,
    properties: {
      openapi: { type: 'string', maxLength: 16, pattern: '^3\\.0\\.\\d+$', example: '3.0.3' },
      info: jsonObject('Title, version and description of the API', { title: 'Workspace Time-Tracking API', version: '1.0.0' }),
      servers: { type: 'array', maxItems: 10, items: jsonObject('A server of the API', { url: 'https://api.example.com' }) },
      paths: jsonObject('The operations, by path template', { '/v1/clients': { get: { operationId: 'listClients' } } }),
      components: jsonObject('Schemas, responses and security schemes', { securitySchemes: { ApiKeyAuth: { type: 'apiKey', in: 'header', name: 'X-API-Key' } } }),
      security: { type: 'array', maxItems: 10, items: jsonObject('A security requirement', { ApiKeyAuth: [] }) },
      tags: { type: 'array', maxItems: 100, items: jsonObject('A tag', { name: 'clients', description: 'The customers work is done for' }) },
      'x-tagGroups': { type: 'array', maxItems: 20, items: jsonObject('A group of tags (the reference page sidebar)', { name: 'Catalog', tags: ['clients', 'projects'] }) },
      externalDocs: jsonObject('External documentation', { url: 'https://api.example.com/v1/docs' }),
    },
  },
);

/** The file name of the reference page's renderer (Redoc), served by the API itself next to the page. */
export const DOCS_SCRIPT = 'redoc.standalone.js';

export const publicRoutes = lazyRoutes({
  getOpenApi: {
    method: 'GET',
    path: '/v1/openapi.json',
    resource: 'openapi',
    scope: null,
    summary: 'The OpenAPI 3.0 description of this API (public)',
    description: 'This document, generated from the route table; `servers` names the address the request reached.',
    response: openApiDocumentSchema,
    successStatus: 200,
  },
  getApiReference: {
    method: 'GET',
    path: '/v1/docs',
    resource: 'openapi',
    scope: null,
    summary: 'The API reference: an HTML page rendering this document (public)',
    description:
      'Rendered in the browser by Redoc from GET /v1/openapi.json, over an HTML overview of the same document that shows before any script runs; the page, its script and the document all come from this API. Also at /v1/docs/; query parameters (e.g. utm_source) are ignored.',
    // a page link may carry anything (utm_source=...): ignored, never an error
    query: z.object({}),
    trailingSlash: true,
    response: s.textSchema,
    produces: 'text/html; charset=utf-8',
    successStatus: 200,
  },
  getApiReferenceScript: {
    method: 'GET',
    path: `/v1/docs/${DOCS_SCRIPT}`,
    resource: 'openapi',
    scope: null,
    summary: "The reference page's renderer (Redoc), served by the API itself (public)",
    description:
      'The Redoc standalone bundle the reference page loads, as `?v=<version>` (a hash of its content): that URL never changes content, so it is cached a year (`immutable`); without the current `v`, 5 minutes.',
    query: z.strictObject({
      v: meta(z.optional(z.string().check(z.maxLength(64))), { description: 'The version the page names (a hash of the content)', example: '3f9a1c2b7d4e' }),
    }),
    response: s.textSchema,
    produces: 'text/javascript; charset=utf-8',
    successStatus: 200,
  },
} satisfies Record<string, RouteDef>);

/** The openapi function's routes. */
export const openapiRoutes = publicRoutes;

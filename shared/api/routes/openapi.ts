import * as z from 'zod/mini';
import { meta } from '../../domain/fields';
import * as s from '../schemas';
import { lazyRoutes, type RouteDef } from './define';

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
    response: s.openApiDocumentSchema,
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

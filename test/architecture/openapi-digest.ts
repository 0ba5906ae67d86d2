import { createHash } from 'node:crypto';
import { mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { APIGatewayProxyEvent, APIGatewayProxyResult, Context } from 'aws-lambda';
import { handler as apiDocs } from '../../functions/openapi';
import { handler as consoleFn } from '../../functions/console';
import { buildConsoleAssets } from '../../local/console-assets';

/**
 * Prints the sha256 of both OpenAPI documents as served (GET /v1/openapi.json, GET /console/api/openapi.json,
 * each through its function's stack, Host localhost:3000): the check that a change to the kernel left both
 * byte-identical. `npx tsx test/architecture/openapi-digest.ts [dir]` also writes the two bodies into dir.
 */
const event = (path: string): APIGatewayProxyEvent =>
  ({
    resource: path,
    path,
    httpMethod: 'GET',
    headers: { Host: 'localhost:3000', 'X-Forwarded-Proto': 'http' },
    multiValueHeaders: {},
    queryStringParameters: null,
    multiValueQueryStringParameters: null,
    pathParameters: null,
    stageVariables: null,
    body: null,
    isBase64Encoded: false,
    requestContext: { requestId: 'digest', path } as APIGatewayProxyEvent['requestContext'],
  }) as APIGatewayProxyEvent;
const context = { awsRequestId: 'digest', functionName: 'digest', getRemainingTimeInMillis: () => 30_000 } as unknown as Context;

async function main() {
  const dir = process.argv[2];
  // the console function serves the document built with its assets (as npm start does)
  process.env.CONSOLE_ASSETS_DIR = buildConsoleAssets(mkdtempSync(join(tmpdir(), 'openapi-digest-')));
  for (const [name, fn, path] of [
    ['api', apiDocs, '/v1/openapi.json'],
    ['console', consoleFn, '/console/api/openapi.json'],
  ] as const) {
    const res = (await (fn as (e: APIGatewayProxyEvent, c: Context) => Promise<APIGatewayProxyResult>)(event(path), context))!;
    if (res.statusCode !== 200) throw new Error(`${path}: ${res.statusCode} ${res.body}`);
    console.log(`${createHash('sha256').update(res.body).digest('hex')}  ${path} (${res.body.length} bytes)`);
    if (dir) {
      mkdirSync(dir, { recursive: true });
      writeFileSync(join(dir, `${name}.json`), res.body);
    }
  }
}
void main();

import { appendFileSync } from 'node:fs';
import Ajv, { type ValidateFunction } from 'ajv';
import addFormats from 'ajv-formats';
import { buildOpenApi } from '../../shared/api/openapi';

/**
 * Checks responses against the OpenAPI document the API serves (the very `buildOpenApi()` the openapi
 * function returns; test/contract proves the served one is identical). Used inline by the harness's
 * apiClient on every response of every suite, so the whole test run is a contract test:
 *  - the status must be declared for the operation (method + path template of the document);
 *  - a JSON body must be valid against the schema declared for that status ($refs resolved, OpenAPI 3.0
 *    `nullable` and boolean `exclusiveMinimum/Maximum` converted to JSON Schema, `example` dropped).
 * Requests that reach no operation of the document (an unknown path, a method the path does not offer)
 * are counted as `unmatched`: the document cannot declare them, and the API answers them 404/501.
 */
type Json = Record<string, unknown>;

export interface ContractResponse {
  method: string;
  /** Concrete path without the query string, e.g. /v1/clients/abc */
  path: string;
  status: number;
  headers?: Record<string, string>;
  /** The raw body text. */
  body: string;
}

export interface ContractStats {
  validated: number;
  unmatched: number;
  violations: number;
  /** `${operationId} ${status}` -> count */
  byOperation: Record<string, number>;
}

export class ContractViolation extends Error {
  constructor(
    message: string,
    readonly response: ContractResponse,
  ) {
    super(message);
    this.name = 'ContractViolation';
  }
}

const COMPONENTS_ID = 'openapi-components';

/** OpenAPI 3.0 Schema Object -> JSON Schema (draft-07 as ajv reads it). */
export function toJsonSchema(v: unknown, refBase = ''): unknown {
  if (Array.isArray(v)) return v.map((x) => toJsonSchema(x, refBase));
  if (!v || typeof v !== 'object') return v;
  const src = v as Json;
  const out: Json = {};
  for (const [k, val] of Object.entries(src)) {
    if (k === 'example' || k === 'nullable' || k === 'discriminator' || k === 'xml' || k === 'externalDocs' || k.startsWith('x-')) continue;
    if (k === '$ref' && typeof val === 'string') {
      out.$ref = val.replace(/^#\/components\/schemas\//, `${refBase}#/definitions/`);
      continue;
    }
    if (k === 'properties' && val && typeof val === 'object') {
      // property names are data, not keywords: convert their schemas only
      out.properties = Object.fromEntries(Object.entries(val as Json).map(([name, s]) => [name, toJsonSchema(s, refBase)]));
      continue;
    }
    out[k] = toJsonSchema(val, refBase);
  }
  // OpenAPI 3.0 (draft-04 style) boolean exclusive bounds
  if (out.exclusiveMinimum === true) {
    out.exclusiveMinimum = out.minimum;
    delete out.minimum;
  } else if (out.exclusiveMinimum === false) delete out.exclusiveMinimum;
  if (out.exclusiveMaximum === true) {
    out.exclusiveMaximum = out.maximum;
    delete out.maximum;
  } else if (out.exclusiveMaximum === false) delete out.exclusiveMaximum;
  if (src.nullable === true) {
    if (typeof out.type === 'string' && !out.$ref && !out.allOf && !out.anyOf && !out.oneOf) {
      out.type = [out.type, 'null'];
      if (Array.isArray(out.enum)) out.enum = [...out.enum, null];
    } else {
      return { anyOf: [out, { type: 'null' }] };
    }
  }
  return out;
}

interface Operation {
  operationId: string;
  responses: Record<string, Json>;
}

export class ContractValidator {
  readonly stats: ContractStats = { validated: 0, unmatched: 0, violations: 0, byOperation: {} };
  private readonly ajv: Ajv;
  private readonly templates: Array<{ regex: RegExp; template: string; ops: Record<string, Operation> }>;
  private readonly compiled = new Map<string, ValidateFunction | null>();

  constructor(readonly doc: Json) {
    this.ajv = new Ajv({ allErrors: true, strict: true, strictTypes: false, strictTuples: false, validateFormats: true });
    addFormats(this.ajv);
    const components = (doc.components ?? {}) as { schemas?: Json; responses?: Json };
    const definitions = Object.fromEntries(Object.entries(components.schemas ?? {}).map(([name, s]) => [name, toJsonSchema(s)]));
    this.ajv.addSchema({ $id: COMPONENTS_ID, definitions }, COMPONENTS_ID);
    const paths = (doc.paths ?? {}) as Record<string, Record<string, Operation>>;
    this.templates = Object.entries(paths).map(([template, ops]) => ({
      template,
      ops,
      regex: new RegExp(
        '^' +
          template
            .split('/')
            .map((seg) => (/^\{[^}]+\}$/.test(seg) ? '[^/]+' : seg.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')))
            .join('/') +
          '$',
      ),
    }));
    // literal segments win over parameters (/v1/openapi.json before a hypothetical /v1/{x})
    this.templates.sort((a, b) => (a.template.match(/\{/g)?.length ?? 0) - (b.template.match(/\{/g)?.length ?? 0));
  }

  /** The operation of a method + concrete path, if the document declares one. */
  operationOf(method: string, path: string): { template: string; op: Operation } | undefined {
    for (const t of this.templates) {
      if (!t.regex.test(path)) continue;
      const op = t.ops[method.toLowerCase()];
      return op ? { template: t.template, op } : undefined;
    }
    return undefined;
  }

  private resolveResponse(r: Json): Json {
    let cur = r;
    for (let i = 0; i < 10 && typeof cur.$ref === 'string'; i++) {
      const m = /^#\/components\/responses\/(.+)$/.exec(cur.$ref);
      const next = m ? ((this.doc.components as { responses?: Record<string, Json> } | undefined)?.responses?.[m[1]!] as Json | undefined) : undefined;
      if (!next) throw new Error(`unresolvable response $ref ${cur.$ref}`);
      cur = next;
    }
    return cur;
  }

  private validatorFor(key: string, response: Json): ValidateFunction | null {
    if (this.compiled.has(key)) return this.compiled.get(key)!;
    const schema = (response.content as Record<string, { schema?: unknown }> | undefined)?.['application/json']?.schema;
    const fn = schema === undefined ? null : this.ajv.compile(toJsonSchema(schema, COMPONENTS_ID) as Json);
    this.compiled.set(key, fn);
    return fn;
  }

  /** The violations of one response (empty when it keeps the contract). */
  check(res: ContractResponse): string[] {
    const found = this.operationOf(res.method, res.path);
    if (!found) {
      this.stats.unmatched++;
      return [];
    }
    const { op } = found;
    this.stats.validated++;
    const label = `${op.operationId} ${res.status}`;
    this.stats.byOperation[label] = (this.stats.byOperation[label] ?? 0) + 1;
    const problems: string[] = [];
    // `default` is the document's "any other error" (a 414, say): it never declares a success or a redirect
    const declared = op.responses[String(res.status)] ?? op.responses[`${String(res.status)[0]}XX`] ?? (res.status >= 400 ? op.responses.default : undefined);
    if (!declared) {
      problems.push(`status ${res.status} is not declared for ${op.operationId} (declared: ${Object.keys(op.responses).join(', ')})`);
    } else {
      const response = this.resolveResponse(declared);
      const validate = this.validatorFor(`${op.operationId} ${res.status}`, response);
      const ctype = Object.entries(res.headers ?? {}).find(([k]) => k.toLowerCase() === 'content-type')?.[1];
      const csvDeclared = Boolean((response.content as Record<string, unknown> | undefined)?.['text/csv']);
      const textType = Object.keys((response.content as Json | undefined) ?? {}).find((t) => t.startsWith('text/') && t !== 'text/csv');
      if (/^text\/csv\b/.test(ctype ?? '')) {
        // a CSV answer: the document declares it for this status, on this operation (GET /v1/time-entries.csv)
        // or, for Accept: text/csv on the JSON operation, on the CSV operation it names in x-csv-operation
        const csvOperation = (op as { 'x-csv-operation'?: string })['x-csv-operation'];
        if (!csvDeclared && !(csvOperation && res.status === 200))
          problems.push(`Content-Type is ${ctype}, which ${op.operationId} ${res.status} does not declare (and it names no x-csv-operation)`);
      } else if (textType) {
        // A text answer (the reference page, its script): the declared media type, a body.
        if (res.headers && !(ctype ?? '').startsWith(textType)) problems.push(`Content-Type is ${ctype ?? 'missing'}, the document declares ${textType}`);
        if (res.body === '') problems.push(`${op.operationId} ${res.status} declares a ${textType} body but none was sent`);
      } else if (validate) {
        if (res.headers && !/^application\/json\b/.test(ctype ?? '')) problems.push(`Content-Type is ${ctype ?? 'missing'}, the document declares application/json`);
        let body: unknown;
        try {
          body = JSON.parse(res.body);
        } catch {
          problems.push(`body is not JSON: ${res.body.slice(0, 200)}`);
        }
        if (problems.length === 0 && !validate(body)) {
          for (const e of validate.errors ?? []) {
            const extra = e.keyword === 'additionalProperties' ? ` (${(e.params as { additionalProperty: string }).additionalProperty})` : '';
            problems.push(`body${e.instancePath || ''} ${e.message}${extra}`);
          }
        }
      } else if (res.body !== '') {
        problems.push(`a body was sent but ${op.operationId} ${res.status} declares none`);
      }
    }
    if (problems.length) this.stats.violations++;
    return problems;
  }

  /** Checks and throws a ContractViolation naming the operation, status and every problem. */
  assert(res: ContractResponse): void {
    const problems = this.check(res);
    if (problems.length === 0) return;
    const op = this.operationOf(res.method, res.path)?.op.operationId;
    throw new ContractViolation(
      `Response breaks the OpenAPI contract: ${res.method} ${res.path} (${op}) -> ${res.status}\n  - ${problems.join('\n  - ')}\n  body: ${res.body.slice(0, 500)}`,
      res,
    );
  }
}

let shared: ContractValidator | undefined;
/** One validator per test file (module registry), against the document the API serves. */
export function contractValidator(): ContractValidator {
  shared ??= new ContractValidator(buildOpenApi() as Json);
  return shared;
}

/** Inline checking is on unless CONTRACT_CHECK=0 (kept for debugging a failing run only). */
export const contractCheckEnabled = () => process.env.CONTRACT_CHECK !== '0';

/**
 * Adds this file's counts to the run's report (CONTRACT_REPORT_FILE, set by jest's global setup), so the
 * global teardown can print how many responses the whole run validated.
 */
export function reportContractStats(file: string): void {
  const target = process.env.CONTRACT_REPORT_FILE;
  if (!target || !shared) return;
  const { validated, unmatched, violations } = shared.stats;
  appendFileSync(target, JSON.stringify({ file, validated, unmatched, violations }) + '\n');
}

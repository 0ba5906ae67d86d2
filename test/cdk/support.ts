import { App, type CfnElement } from 'aws-cdk-lib';
import { Template } from 'aws-cdk-lib/assertions';
import type { IConstruct } from 'constructs';
import { type StageName, stageConfig } from '../../lib/config';
import type { ServiceFunction } from '../../lib/service-function';
import { TimeTrackingStack } from '../../lib/time-tracking-stack';
import { FUNCTION_NAMES } from '../../shared/api/routes';

/** Skip esbuild in template tests: they must not depend on the handlers' code, and must stay fast. */
export const NO_BUNDLING = { 'aws:cdk:bundling-stacks': [] as string[] };

export interface Synth {
  app: App;
  stack: TimeTrackingStack;
  template: Template;
  json: { Resources: Record<string, CfnResourceJson>; Outputs?: Record<string, unknown> };
  /** Logical id of a construct's CloudFormation resource. */
  logicalId(c: IConstruct): string;
}

export interface CfnResourceJson {
  Type: string;
  Properties?: Record<string, any>;
  DeletionPolicy?: string;
  UpdateReplacePolicy?: string;
}

const cache = new Map<string, Synth>();

export function synth(stage: StageName, overrides: Parameters<typeof stageConfig>[1] = {}): Synth {
  const key = JSON.stringify([stage, overrides]);
  const hit = cache.get(key);
  if (hit) return hit;
  // The built-in CloudFormation validation (about 20 s per synth) runs in nag.test.ts, once per stage.
  const app = new App({ context: NO_BUNDLING, builtinCloudFormationValidation: false });
  const stack = new TimeTrackingStack(app, `TimeTracking-${stage}`, { config: stageConfig(stage, overrides) });
  const template = Template.fromStack(stack);
  const s: Synth = {
    app,
    stack,
    template,
    json: template.toJSON() as Synth['json'],
    logicalId: (c) => {
      const el = (c.node.defaultChild ?? c) as CfnElement;
      return stack.resolve(el.logicalId) as string;
    },
  };
  cache.set(key, s);
  return s;
}

export const resourcesOfType = (s: Synth, type: string): Array<[string, CfnResourceJson]> => Object.entries(s.json.Resources).filter(([, r]) => r.Type === type);

/** Every IAM statement attached (inline policy) to a role, by the role's logical id. */
export function statementsOfRole(s: Synth, roleLogicalId: string): Array<Record<string, any>> {
  return resourcesOfType(s, 'AWS::IAM::Policy')
    .filter(([, p]) => (p.Properties?.Roles ?? []).some((r: any) => r.Ref === roleLogicalId))
    .flatMap(([, p]) => p.Properties!.PolicyDocument.Statement as Array<Record<string, any>>);
}

export const asArray = <T>(v: T | T[]): T[] => (Array.isArray(v) ? v : [v]);

/**
 * The functions behind the API that serve no entity of the registry; every entity of the registry has a
 * function of its own besides (the pins of test/cdk are derived from the two, so a new resource moves them).
 */
export const API_FUNCTIONS_BEYOND_ENTITIES = ['openapi', 'me', 'changes', 'reports'] as const;

/** Every function of the stack, by its name (the folder under functions/): the API's, the authorizer, the webhook workers, the console's. */
export function allFunctions(s: Synth): Array<[string, ServiceFunction]> {
  return [
    ...FUNCTION_NAMES.map((n) => [n, s.stack.functions[n]] as [string, ServiceFunction]),
    ['authorizer', s.stack.authorizerFunction],
    ['webhook-dispatcher', s.stack.webhooks.dispatcher],
    ['webhook-sender', s.stack.webhooks.sender],
    ['console', s.stack.console.fn],
    ['console-invoice-pdf', s.stack.console.pdfFn],
    ['console-keys', s.stack.console.keysFn],
    ['console-authorizer', s.stack.console.authorizerFn],
    ['invoice-sweep', s.stack.invoiceSweep.fn],
  ];
}

/** Full path of every AWS::ApiGateway::Resource, by logical id (rebuilt from ParentId/PathPart). */
export function resourcePaths(s: Synth): Map<string, string> {
  const resources = new Map(resourcesOfType(s, 'AWS::ApiGateway::Resource'));
  const paths = new Map<string, string>();
  const pathOf = (id: string): string => {
    const known = paths.get(id);
    if (known) return known;
    const r = resources.get(id);
    if (!r) throw new Error(`unknown resource ${id}`);
    const parent = r.Properties!.ParentId;
    const parentPath = parent.Ref ? pathOf(parent.Ref) : ''; // Fn::GetAtt [Api, RootResourceId]
    const p = `${parentPath}/${r.Properties!.PathPart}`;
    paths.set(id, p);
    return p;
  };
  for (const id of resources.keys()) pathOf(id);
  return paths;
}

export interface MethodRow {
  path: string;
  method: string;
  authorizationType: string;
  authorizerId?: string;
  integration: Record<string, any>;
  /** The method's whole Properties. */
  properties: Record<string, any>;
}

/** Every AWS::ApiGateway::Method with its full path. */
export function methods(s: Synth): MethodRow[] {
  const paths = resourcePaths(s);
  return resourcesOfType(s, 'AWS::ApiGateway::Method').map(([, m]) => {
    const p = m.Properties!;
    return {
      path: p.ResourceId.Ref ? paths.get(p.ResourceId.Ref)! : '/',
      method: p.HttpMethod,
      authorizationType: p.AuthorizationType,
      authorizerId: p.AuthorizerId?.Ref,
      integration: p.Integration,
      properties: p,
    };
  });
}

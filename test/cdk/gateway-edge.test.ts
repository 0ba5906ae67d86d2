import { GATEWAY_ANSWERS, REQUEST_ID_HEADER, gatewayAnswerList, gatewayAnswerResponse, type GatewayAnswer } from '../../shared/api/gateway-edge';
import { resourcesOfType, synth } from './support';

/**
 * The deployed gateway's own answers are the table's (shared/api/gateway-edge.ts), as the local gateway
 * gives them: for every entry, the synthesized Gateway Response (or the 501 mock's integration response)
 * with $context.requestId and $context.error.messageString substituted, against the local answer for the
 * same request id: same status, same headers, same body.
 */
const REQUEST_ID = '0d9e8f7a-6b5c-4d3e-8f2a-1b0c9d8e7f6a';
const substitute = (template: string, messageString: string) =>
  template.replace(/\$context\.requestId/g, REQUEST_ID).replace(/\$context\.error\.messageString/g, JSON.stringify(messageString));
/** 'literal' header values of a response's parameters, by header name. */
const literalHeaders = (params: Record<string, string>, prefix: string) =>
  Object.fromEntries(Object.entries(params).map(([k, v]) => [k.slice(prefix.length), v.replace(/^'|'$/g, '')]));

interface Deployed {
  status?: string;
  headers: Record<string, string>;
  template: string;
}

describe.each(['dev', 'prod'] as const)('gateway edge (%s)', (stage) => {
  const s = synth(stage);
  const gatewayResponses = new Map(
    resourcesOfType(s, 'AWS::ApiGateway::GatewayResponse').map(([, r]) => {
      const p = r.Properties!;
      const deployed: Deployed = {
        status: p.StatusCode,
        headers: literalHeaders(p.ResponseParameters ?? {}, 'gatewayresponse.header.'),
        template: p.ResponseTemplates['application/json'],
      };
      return [p.ResponseType as string, deployed];
    }),
  );
  const mockResponses = resourcesOfType(s, 'AWS::ApiGateway::Method')
    .filter(([, m]) => m.Properties!.HttpMethod === 'ANY')
    .map(([, m]) => {
      const [r] = m.Properties!.Integration.IntegrationResponses;
      return {
        status: r.StatusCode,
        headers: literalHeaders(r.ResponseParameters ?? {}, 'method.response.header.'),
        template: r.ResponseTemplates['application/json'],
      } as Deployed;
    });

  /** How the deployed API answers an entry: its Gateway Response, the 501 mock, or DEFAULT_4XX. */
  function deployedOf(a: GatewayAnswer): Deployed {
    switch (a.deployed.kind) {
      case 'gateway-response':
        return gatewayResponses.get(a.deployed.responseType)!;
      case 'mock-integration':
        return mockResponses[0]!;
      case 'default-4xx':
        return gatewayResponses.get('DEFAULT_4XX')!;
    }
  }

  test('one Gateway Response per gateway-response entry of the table, and no other', () => {
    const want = gatewayAnswerList.flatMap((a) => (a.deployed.kind === 'gateway-response' ? [a.deployed.responseType] : []));
    expect([...gatewayResponses.keys()].sort()).toEqual(want.sort());
    expect(mockResponses.length).toBeGreaterThan(0);
    for (const m of mockResponses) expect(m).toEqual(mockResponses[0]);
  });

  test.each(gatewayAnswerList.map((a) => [a.id, a] as const))('%s: deployed and local answers have the same status, headers and body', (_id, a) => {
    const deployed = deployedOf(a);
    expect(deployed).toBeDefined();
    const gatewayMessage = 'Some message of API Gateway\'s "own"';
    const local = gatewayAnswerResponse(a.id, REQUEST_ID, gatewayMessage);
    const { [REQUEST_ID_HEADER]: localRequestId, ...localHeaders } = local.headers;
    expect(localRequestId).toBe(REQUEST_ID);
    expect(deployed.headers).toEqual(localHeaders);
    const deployedBody = JSON.parse(substitute(deployed.template, gatewayMessage));
    const localBody = JSON.parse(local.body);
    expect(Object.keys(deployedBody)).toEqual(['error']);
    expect(Object.keys(deployedBody.error)).toEqual(Object.keys(localBody.error));
    expect(deployedBody.error.requestId).toBe(REQUEST_ID);
    expect(typeof deployedBody.error.message).toBe('string');
    if (a.deployed.kind === 'default-4xx') {
      // No response type of its own (API Gateway's 414): DEFAULT_4XX renders it, keeping API Gateway's status
      // and message; gateway response templates are not VTL, so its code is DEFAULT_4XX's.
      expect(deployed.status).toBeUndefined();
      expect(deployedBody.error.code).toBe(GATEWAY_ANSWERS.DEFAULT_4XX.code);
      return;
    }
    expect(deployed.status).toBe(a.statusFromGateway ? undefined : String(local.status));
    expect(deployedBody).toEqual(localBody);
    expect(substitute(deployed.template, gatewayMessage)).toBe(local.body);
  });
});

import { MIN_COMPRESSION_BYTES } from '../../shared/api/gateway-edge';
import { synth } from './support';

/**
 * Responses are gzip-compressed from the same threshold deployed (the RestApi's MinimumCompressionSize)
 * and locally (local/server.ts, proved by test/local/compression.test.ts): one constant, gateway-edge.ts.
 */
test.each(['dev', 'prod'] as const)('%s: the RestApi compresses responses of at least MIN_COMPRESSION_BYTES', (stage) => {
  expect(MIN_COMPRESSION_BYTES).toBe(1024);
  synth(stage).template.hasResourceProperties('AWS::ApiGateway::RestApi', { MinimumCompressionSize: MIN_COMPRESSION_BYTES });
});

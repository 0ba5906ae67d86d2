/**
 * Section 4 of `npm run bench` alone: the DynamoDB work per endpoint (bench/dynamo-work.ts), with its own
 * DynamoDB Local (in memory, free port) and the small workspace, printed as a table. Calls and capacity
 * units do not depend on the machine's load, so this can run beside other work.
 *
 *   npx tsx bench/work-only.ts
 */
import { out, runScript } from './lib/env';
import { table } from './lib/report';
import { fmt } from './lib/stats';

runScript(async (ws) => {
  const { DynamoCounter } = await import('./lib/dynamo-counter');
  const { db, dynamoConfig } = await import('../shared/data/db');
  const { createGateway } = await import('../local/gateway');
  const { measureDynamoWork } = await import('./dynamo-work');
  const counter = new DynamoCounter(dynamoConfig()).install(db());
  const rows = await measureDynamoWork(createGateway({ authCacheTtlSeconds: 3600 }), counter, ws);
  const header = ['endpoint', 'status', 'data calls', 'RCU', 'WCU', 'of which feed (calls / WCU)', 'target'];
  const body = rows.map((r) => {
    const s = r.summary;
    return [
      r.label,
      String(r.status),
      s.commands.length ? `${s.dataCalls}: ${s.commands.join(' + ')}` : '0',
      fmt(s.rcu, 1),
      fmt(s.wcu, 1),
      s.feedCalls || s.feedWcu ? `${s.feedCalls} / ${fmt(s.feedWcu, 1)}` : '-',
      r.target ? `${r.met ? 'MET' : 'MISSED'}: ${r.target}` : '-',
    ];
  });
  out(table(header, body, 1));
  counter.destroy();
});

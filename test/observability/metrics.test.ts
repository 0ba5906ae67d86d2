// Metrics are off in tests by default (test/support/env.ts); this file turns them on before any handler loads.
process.env.POWERTOOLS_METRICS_DISABLED = 'false';

import { apiClient, makeKey, newWorkspace, useTestTable } from '../support/harness';

useTestTable();
const api = apiClient();

type Emf = { _aws: { CloudWatchMetrics: Array<{ Namespace: string; Dimensions: string[][]; Metrics: Array<{ Name: string }> }> }; [k: string]: unknown };

async function captureEmf(fn: () => Promise<unknown>): Promise<Emf[]> {
  const lines: string[] = [];
  const spy = jest.spyOn(process.stdout, 'write').mockImplementation((chunk: unknown) => {
    lines.push(String(chunk));
    return true;
  });
  try {
    await fn();
  } finally {
    spy.mockRestore();
  }
  return lines
    .flatMap((l) => l.split('\n'))
    .filter((l) => l.includes('"_aws"'))
    .map((l) => JSON.parse(l) as Emf);
}

test('every request emits one EMF record per resource: Requests, Errors, ClientErrors, RateLimited, AuthFailed', async () => {
  const key = await makeKey(newWorkspace(), { perMinute: 2 });
  await api.get('/v1/clients', { key }); // warm the authorizer cache: its own record is not part of what we count
  const emf = await captureEmf(async () => {
    await api.get('/v1/clients', { key }); // 200 (2nd of 2 allowed this minute)
    await api.get('/v1/clients', { key }); // 403 rate limited
  });
  const records = emf.filter((r) => r.resource === 'clients');
  expect(records).toHaveLength(2);
  for (const r of records) {
    expect(r._aws.CloudWatchMetrics[0]!.Namespace).toBe('TimeTracking');
    expect(r._aws.CloudWatchMetrics[0]!.Dimensions[0]).toEqual(expect.arrayContaining(['service', 'resource']));
    expect(r._aws.CloudWatchMetrics[0]!.Metrics.map((m) => m.Name).sort()).toEqual(['AuthFailed', 'ClientErrors', 'Errors', 'RateLimited', 'Requests']);
  }
  expect(records.map((r) => [r.Requests, r.ClientErrors, r.RateLimited, r.Errors])).toEqual([
    [1, 0, 0, 0],
    [1, 1, 1, 0],
  ]);
});

test('the authorizer counts failed authentications', async () => {
  const emf = await captureEmf(() => api.get('/v1/clients', { key: 'svc_live_garbage' }));
  const auth = emf.filter((r) => r.resource === 'authorizer');
  expect(auth).toHaveLength(1);
  expect(auth[0]).toMatchObject({ AuthFailed: 1, Requests: 1 });
});

test('each record is the line Powertools publishes itself for the same outcome (the layout is serialized once per container)', async () => {
  const { Metrics, MetricUnit } = await import('@aws-lambda-powertools/metrics');
  const { createMetrics, metricsOptions, outcomeValues } = await import('../../shared/platform/metrics');
  const ours = createMetrics('clients');
  const reference = new Metrics(metricsOptions('clients'));
  const outcomes = [{ status: 200 }, { status: 201 }, { status: 400 }, { status: 401 }, { status: 403, rateLimited: true }, { status: 404 }, { status: 500 }, { status: 503 }];
  for (const outcome of outcomes) {
    const timestamp = Date.now();
    const lines: string[] = [];
    const spy = jest.spyOn(process.stdout, 'write').mockImplementation((chunk: unknown) => {
      lines.push(String(chunk));
      return true;
    });
    try {
      for (const [name, value] of Object.entries(outcomeValues(outcome))) reference.addMetric(name, MetricUnit.Count, value);
      reference.setTimestamp(timestamp);
      reference.publishStoredMetrics();
    } finally {
      spy.mockRestore();
    }
    expect(lines).toEqual([`${ours.line(outcome, timestamp)}\n`]);
  }
});

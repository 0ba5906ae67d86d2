// Logs at INFO for this file (tests are SILENT by default), captured from stdout. The harness is required after
// the level is set (an import would be hoisted above it, and the logger made at SILENT by what it imports).
process.env.POWERTOOLS_LOG_LEVEL = 'INFO';
const { apiClient, makeKey, newWorkspace, useTestTable } = require('../support/harness') as typeof import('../support/harness');

useTestTable();
const api = apiClient();

test('every log line of a request carries the API Gateway request id as correlation_id, plus route and workspace', async () => {
  const key = await makeKey(newWorkspace('logs'));
  const lines: string[] = [];
  const spy = jest.spyOn(process.stdout, 'write').mockImplementation((chunk: unknown) => {
    lines.push(String(chunk));
    return true;
  });
  let requestIds: string[] = [];
  try {
    const ok = await api.post('/v1/clients', { name: 'Logged' }, { key });
    const bad = await api.get('/v1/clients/does-not-exist', { key });
    requestIds = [ok.headers['X-Request-Id']!, bad.headers['X-Request-Id']!];
  } finally {
    spy.mockRestore();
  }
  const records = lines
    .flatMap((l) => l.split('\n'))
    .filter((l) => l.startsWith('{') && l.includes('"level"'))
    .map((l) => JSON.parse(l) as Record<string, unknown>);
  for (const id of requestIds) {
    const mine = records.filter((r) => r.correlation_id === id);
    expect(mine.length).toBeGreaterThanOrEqual(1);
    expect(mine[0]).toMatchObject({ route: expect.any(String), keyId: expect.stringMatching(/^key_/) });
  }
  const served = records.find((r) => r.correlation_id === requestIds[0] && r.message === 'Request served');
  expect(served).toMatchObject({ route: 'addClient', status: 201 });
  const rejected = records.find((r) => r.correlation_id === requestIds[1] && r.message === 'Request rejected');
  expect(rejected).toMatchObject({ route: 'getClient', status: 404 });
});

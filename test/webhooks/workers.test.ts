import type { Context, DynamoDBStreamEvent, SQSEvent } from 'aws-lambda';
import { handler as dispatcher } from '../../functions/webhook-dispatcher';
import { handler as sender } from '../../functions/webhook-sender';
import { keys } from '../../shared/data/keys';
import { localAck, localQueueDepth, localReceive } from '../../local/queue';
import type { DeliveryMessage } from '../../shared/webhooks/delivery';
import { workspaceWithKey } from '../resources/support';
import { apiClient, useTestTable } from '../support/harness';
import { Receiver, until } from './support';

/**
 * The two Lambda handlers of AWS delivery, run on DynamoDB Local with the events Lambda gives them (a
 * stream batch, an SQS batch); without WEBHOOK_QUEUE_URL their queue is the local one, which this test
 * drains into SQS-shaped events. Proves the stream wakes the right workspace, the sender posts verified
 * deliveries, and a message it cannot handle is reported as a batch item failure (SQS retries it, then
 * moves it to the dead-letter queue) while the others succeed.
 */
process.env.WEBHOOK_RETRY_SCHEDULE = '0.05';
useTestTable();
const api = apiClient();
const context = { awsRequestId: 'req', functionName: 'fn', getRemainingTimeInMillis: () => 30_000 } as unknown as Context;
const receivers: Receiver[] = [];
afterEach(async () => Promise.all(receivers.splice(0).map((r) => r.close())));

/** A stream batch as Lambda delivers it (filtered to inserted change events), for a workspace's feed partition. */
const streamEvent = (...workspaces: string[]): DynamoDBStreamEvent => ({
  Records: workspaces.map((ws, i) => ({ eventName: 'INSERT', dynamodb: { Keys: { PK: { S: keys.changeLogPartition(ws) }, SK: { S: `EVT#${i}` } } } })),
});
/** Takes the due local messages as an SQS batch (acknowledging them, as Lambda deletes a batch's successes). */
async function sqsBatch(extra: string[] = []): Promise<SQSEvent> {
  const due = await localReceive<DeliveryMessage>(10);
  for (const m of due) await localAck(m.id);
  const records = [...due.map((m) => ({ messageId: m.id, body: JSON.stringify(m.body) })), ...extra.map((body, i) => ({ messageId: `bad-${i}`, body }))];
  return { Records: records } as unknown as SQSEvent;
}

test('stream batch -> dispatcher -> queue -> sender -> a verified POST; a message the sender cannot handle is a batch item failure', async () => {
  const { ws, key } = await workspaceWithKey('workers');
  const other = await workspaceWithKey('workers');
  const r = new Receiver();
  await r.listen();
  receivers.push(r);
  const hook = await api.post('/v1/webhooks', { url: r.url, events: ['client.*'] }, { key });
  r.secrets.push(hook.body.secret);
  const client = (await api.post('/v1/clients', { name: 'Acme' }, { key })).body;
  expect((await api.post('/v1/clients', { name: 'Other' }, { key: other.key })).status).toBe(201);

  await dispatcher(streamEvent(ws, other.ws, ws), context);
  expect(await localQueueDepth()).toBe(1); // one event, one endpoint: the other workspace has none
  await dispatcher(streamEvent(ws), context); // a stream record delivered twice: nothing queued twice
  expect(await localQueueDepth()).toBe(1);

  const result = await sender(await sqsBatch(['{not json', JSON.stringify({ kind: 'deliver', workspaceId: ws })]), context);
  expect(result.batchItemFailures.map((f) => f.itemIdentifier).sort()).toEqual(['bad-0', 'bad-1']);
  expect(r.unverified).toEqual([]);
  expect(r.events().map((e) => [e.event.type, e.event.resourceId])).toEqual([['client.created', client.id]]);

  // a failed attempt is queued again by the sender, and the next batch delivers it
  r.behave = ({ attempt }) => (attempt === 1 ? 500 : 200);
  expect((await api.put(`/v1/clients/${client.id}`, { notes: 'x' }, { key })).status).toBe(200);
  await dispatcher(streamEvent(ws), context);
  expect((await sender(await sqsBatch(), context)).batchItemFailures).toEqual([]);
  await until(async () => (await localReceive(10)).length === 1);
  expect((await sender(await sqsBatch(), context)).batchItemFailures).toEqual([]);
  const updated = r.requests.filter((q) => q.event.type === 'client.updated');
  expect(updated).toHaveLength(2);
  expect(updated[0]!.id).toBe(updated[1]!.id);
  expect(await localQueueDepth()).toBe(0);
});

import type { QueryCommandOutput } from '@aws-sdk/lib-dynamodb';
import { queryAll, tableName } from '../data/db';
import { keys } from '../data/keys';

/**
 * Reads of the running-timer items that shared/services/timers.ts keeps (one per user with a running entry),
 * apart from it so that a reader (the summary report) does not load the write rule.
 */
/**
 * The startTimes of the running timers of a workspace, or of one user: the timer items (one small item per
 * user with a running entry, its sortKey starting with the startTime; at most one item per user, so a
 * workspace of thousands of users still reads a few hundred KB at most, in pages). `onPage` sees each page.
 */
export async function runningTimerStarts(workspaceId: string, userId: string | undefined, onPage: (res: QueryCommandOutput) => void): Promise<string[]> {
  const timerKey = userId === undefined ? undefined : keys.runningTimer(workspaceId, userId);
  const items = await queryAll(
    {
      TableName: tableName(),
      KeyConditionExpression: timerKey ? 'PK = :pk AND SK = :sk' : 'PK = :pk AND begins_with(SK, :sk)',
      ExpressionAttributeValues: { ':pk': keys.workspacePartition(workspaceId), ':sk': timerKey ? timerKey.SK : 'RUNNING#' },
      ReturnConsumedCapacity: 'TOTAL',
    },
    onPage,
  );
  return items.map((i) => String(i.sortKey).slice(0, 24));
}

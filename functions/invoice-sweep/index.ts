import type { Context } from 'aws-lambda';
import { runInvoiceSweep } from '../../shared/invoicing/sweep';

/**
 * The invoice sweep (shared/invoicing/sweep.ts), run every minute by an EventBridge schedule: it stops
 * starting work 5 s before the function's timeout (what is left is the next minute's).
 */
export const handler = async (_event: unknown, context: Context) => runInvoiceSweep({ budgetMs: Math.max(1000, context.getRemainingTimeInMillis() - 5000) });

import { clients } from '../../domain/entities/clients';
import { invoices } from '../../domain/entities/invoices';
import { webhooks } from '../../domain/entities/webhooks';
import { findInWorkspace } from '../../data/apikey-store';
import type { AuditEntry } from '../../data/audit';
import { repository } from '../../data/repository';

/**
 * The audit log as people read it (issue 36 item 8): beside each target id its name (a key's name and prefix,
 * a member's e-mail, an invoice's number and client name, a webhook's URL), looked up when the page is read
 * (once per target per page; a target since deleted keeps its id alone), and each change as one line
 * "field: before -> after".
 */
export async function readableEntries(workspaceId: string, entries: readonly AuditEntry[]) {
  const names = new Map<string, Promise<string | null>>();
  const nameOf = (t: AuditEntry['target']) => {
    const k = `${t.type}:${t.id}`;
    if (!names.has(k))
      names.set(
        k,
        lookUp(workspaceId, t).catch(() => null),
      );
    return names.get(k)!;
  };
  return Promise.all(entries.map(async (e) => ({ ...e, targetName: await nameOf(e.target), summary: summarize(e.changes) })));
}

async function lookUp(workspaceId: string, t: AuditEntry['target']): Promise<string | null> {
  switch (t.type) {
    case 'member':
      return t.id;
    case 'workspace':
      return `Workspace ${t.id}`;
    case 'api-key': {
      const k = await findInWorkspace(workspaceId, t.id);
      return k ? `${k.name}${k.prefix ? ` (${k.prefix}…)` : ''}` : null;
    }
    case 'invoice': {
      const inv = await repository(invoices).getItem(workspaceId, { id: t.id });
      if (!inv) return null;
      const client = inv.clientId ? await repository(clients).getItem(workspaceId, { id: String(inv.clientId) }) : undefined;
      return `${inv.number ? String(inv.number) : 'draft'}${client?.name ? ` (${String(client.name)})` : ''}`;
    }
    case 'webhook': {
      const w = await repository(webhooks).getItem(workspaceId, { id: t.id });
      return w ? String(w.url) : null;
    }
    default:
      return null;
  }
}

const shown = (v: unknown): string => {
  if (v === undefined || v === null) return 'none';
  if (typeof v === 'string') return v;
  if (Array.isArray(v)) return v.map(shown).join(', ') || 'none';
  return JSON.stringify(v);
};
export const summarize = (changes: AuditEntry['changes']): string[] => Object.entries(changes).map(([field, c]) => `${field}: ${shown(c.from)} -> ${shown(c.to)}`);

import type { Section } from '../section';
import { AuditSection } from './audit';
import { InvoicesSection } from './invoices';
import { KeysSection } from './keys';
import { MembersSection } from './members';
import { SettingsSection } from './settings';
import { UsageSection } from './usage';
import { WebhooksSection } from './webhooks';

/** The page's sections, in the order of its navigation: one file each (docs/console.md, "Adding a section"). */
export const SECTIONS: Section[] = [
  { id: 'keys', title: 'API Keys', minRole: 'viewer', view: KeysSection },
  { id: 'usage', title: 'Usage', minRole: 'viewer', view: UsageSection },
  { id: 'members', title: 'Members', minRole: 'owner', view: MembersSection },
  { id: 'audit', title: 'Audit log', minRole: 'admin', view: AuditSection },
  { id: 'invoices', title: 'Invoices', minRole: 'viewer', view: InvoicesSection },
  { id: 'webhooks', title: 'Webhooks', minRole: 'viewer', view: WebhooksSection },
  { id: 'settings', title: 'Settings', minRole: 'viewer', view: SettingsSection },
];

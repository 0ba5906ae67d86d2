import type { FunctionComponent } from 'preact';
import type { Role } from './api/client';
import type { Config } from './auth';

/** What the shell gives the open section: the workspace, the person's role in it, the page's config, the id in the address. */
export interface SectionProps {
  workspaceId: string;
  role: Role;
  cfg: Config;
  /** `#/<section>/<id>`: the record the address names (a key, an invoice), or null. */
  id: string | null;
}
export interface Section {
  /** Its address: `#/<id>`. */
  id: string;
  title: string;
  /** The least role that sees it (the console API's `access` of its routes). */
  minRole: Role;
  view: FunctionComponent<SectionProps>;
}

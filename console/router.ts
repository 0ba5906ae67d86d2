import { signal } from '@preact/signals';

/**
 * Every view has an address in the page's hash: `#/<section>` or `#/<section>/<id>` (`#/keys/key_...`,
 * `#/invoices/<id>`), with `?w=<workspaceId>` when it is not the person's first workspace. Back and forward
 * move between views (hashchange); a reload returns to the same one (the sign-in keeps the hash).
 */
export interface Route {
  section: string;
  id: string | null;
  workspace: string | null;
  /** The view's other parameters (`#/audit?action=...&actor=...`): a filter is part of the address. */
  query: Record<string, string>;
}

export function parseHash(hash: string): Route {
  const [path = '', query = ''] = hash.replace(/^#\/?/, '').split('?');
  const [section = '', id] = path.split('/');
  const params = new URLSearchParams(query);
  const workspace = params.get('w');
  params.delete('w');
  return { section: decodeURIComponent(section), id: id ? decodeURIComponent(id) : null, workspace, query: Object.fromEntries(params) };
}

export const route = signal<Route>(parseHash(location.hash));
addEventListener('hashchange', () => {
  route.value = parseHash(location.hash);
});

/** The address of a view of the current workspace. */
export function href(section: string, id?: string | null, workspace = route.value.workspace, query: Record<string, string> = {}): string {
  const params = new URLSearchParams({ ...(workspace ? { w: workspace } : {}), ...Object.fromEntries(Object.entries(query).filter(([, v]) => v)) }).toString();
  return `#/${encodeURIComponent(section)}${id ? `/${encodeURIComponent(id)}` : ''}${params ? `?${params}` : ''}`;
}

export function go(section: string, id?: string | null, workspace?: string | null) {
  location.hash = href(section, id, workspace === undefined ? route.value.workspace : workspace);
}

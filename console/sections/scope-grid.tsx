import { useId } from 'preact/hooks';
import type { Scope } from '../api/client';

/**
 * Scopes picked per resource: None / Read / Read and write (a key that holds only `x:write` shows
 * "Write only", so an edit starts from what the key has). `scopes` is the server's list (config.json).
 */
type Level = 'none' | 'read' | 'write' | 'writeOnly';
const LEVELS: Array<[Level, string]> = [
  ['none', 'None'],
  ['read', 'Read'],
  ['write', 'Read and write'],
];

export function ScopeGrid({ scopes, value, onChange, error }: { scopes: string[]; value: Scope[]; onChange: (v: Scope[]) => void; error?: string | undefined }) {
  const id = useId();
  const known = (s: string): s is Scope => scopes.includes(s);
  const resources = [...new Set(scopes.map((s) => s.split(':')[0]!))];
  const levelOf = (r: string): Level => {
    const read = value.some((s) => s === `${r}:read`);
    const write = value.some((s) => s === `${r}:write`);
    return read && write ? 'write' : read ? 'read' : write ? 'writeOnly' : 'none';
  };
  const set = (r: string, level: Level) => {
    const rest = value.filter((s) => !s.startsWith(`${r}:`));
    const add = level === 'none' ? [] : level === 'read' ? [`${r}:read`] : level === 'writeOnly' ? [`${r}:write`] : [`${r}:read`, `${r}:write`];
    onChange([...rest, ...add.filter(known)]);
  };
  return (
    <fieldset class="scope-grid" aria-invalid={error ? 'true' : undefined} aria-describedby={error ? `${id}-error` : undefined}>
      <legend>Scopes</legend>
      <div class="table-box" role="region" aria-label="Scopes per resource" tabIndex={0}>
        <table>
          <thead>
            <tr>
              <th scope="col">Resource</th>
              {LEVELS.map(([, t]) => (
                <th scope="col" key={t}>
                  {t}
                </th>
              ))}
            </tr>
          </thead>
          <tbody>
            {resources.map((r) => {
              const current = levelOf(r);
              return (
                <tr key={r}>
                  <th scope="row">{r}</th>
                  {LEVELS.map(([level, t]) => (
                    <td key={level}>
                      <label class="cell">
                        <input type="radio" name={`${id}-${r}`} aria-label={`${r}: ${t}`} checked={current === level} onChange={() => set(r, level)} />
                        {current === 'writeOnly' && level === 'write' ? <span class="note"> (now: write only)</span> : null}
                      </label>
                    </td>
                  ))}
                </tr>
              );
            })}
          </tbody>
        </table>
      </div>
      {error ? (
        <span class="field-error" id={`${id}-error`}>
          {error}
        </span>
      ) : null}
    </fieldset>
  );
}

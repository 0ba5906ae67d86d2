import { useEffect, useState } from 'preact/hooks';
import { client, ok, type ApiKey } from '../api/client';
import { go } from '../router';
import type { SectionProps } from '../section';
import { ErrorBox, Field, TableBox } from '../ui';

/**
 * Usage: one key's requests per hour over the last 7 days (`#/usage/<keyId>`), as a chart with labelled axes
 * (hours, requests) where rate-limited requests stand apart, and as a table.
 */
type Hour = { hour: string; requests: number; rateLimited: number };

export function UsageSection({ workspaceId, id }: SectionProps) {
  const [keys, setKeys] = useState<ApiKey[] | null>(null);
  const [hours, setHours] = useState<Hour[] | null>(null);
  const [error, setError] = useState<unknown>(null);
  useEffect(() => {
    client
      .GET('/console/api/workspaces/{workspaceId}/api-keys', { params: { path: { workspaceId } } })
      .then((r) => setKeys(ok(r).items))
      .catch(setError);
  }, [workspaceId]);
  const keyId = id ?? keys?.[0]?.id ?? null;
  useEffect(() => {
    if (!keyId) return;
    setHours(null);
    // another key chosen before this answer came: it is dropped (answers may come back in any order)
    let current = true;
    client
      .GET('/console/api/workspaces/{workspaceId}/api-keys/{keyId}/usage', { params: { path: { workspaceId, keyId }, query: { hours: 168 } } })
      .then((r) => current && setHours(ok(r).items))
      .catch((e: unknown) => current && setError(e));
    return () => {
      current = false;
    };
  }, [workspaceId, keyId]);

  if (error) return <ErrorBox error={error} />;
  if (!keys) return <p role="status">Loading…</p>;
  if (!keys.length) return <p>No keys yet.</p>;
  const total = hours?.reduce((a, i) => a + i.requests, 0) ?? 0;
  const limited = hours?.reduce((a, i) => a + i.rateLimited, 0) ?? 0;
  return (
    <div>
      <Field label="Key">
        {(a) => (
          <select {...a} value={keyId ?? ''} onChange={(e) => go('usage', e.currentTarget.value)}>
            {keys.map((k) => (
              <option key={k.id} value={k.id}>
                {k.name} ({k.prefix ?? k.id})
              </option>
            ))}
          </select>
        )}
      </Field>
      <p class="note">Requests per hour over the last 7 days.</p>
      {hours ? (
        <>
          <p data-testid="usage-summary">
            Last 7 days: {total} requests, {limited} rate-limited.
          </p>
          <Chart items={hours} />
          <p class="legend">
            <span class="ok">requests</span>
            <span class="limited">rate-limited</span>
          </p>
          <details>
            <summary>Show as a table</summary>
            <TableBox label="Requests per hour">
              <thead>
                <tr>
                  <th>Hour</th>
                  <th>Requests</th>
                  <th>Rate-limited</th>
                </tr>
              </thead>
              <tbody>
                {hours
                  .filter((h) => h.requests || h.rateLimited)
                  .map((h) => (
                    <tr key={h.hour}>
                      <td>{new Date(h.hour).toLocaleString()}</td>
                      <td>{h.requests}</td>
                      <td>{h.rateLimited}</td>
                    </tr>
                  ))}
              </tbody>
            </TableBox>
            <p class="note">Hours without requests are left out.</p>
          </details>
        </>
      ) : (
        <p role="status">Loading usage…</p>
      )}
    </div>
  );
}

/** Bars per hour: requests (blue) and, in their own band below, rate-limited requests (red); axes labelled. */
function Chart({ items }: { items: Hour[] }) {
  const W = 840;
  const left = 48;
  const top = 10;
  const plotH = 130;
  const limH = 30;
  const gap = 8;
  const axisY = top + plotH;
  const limTop = axisY + gap;
  const H = limTop + limH + 40;
  const max = Math.max(1, ...items.map((i) => i.requests));
  const maxLimited = Math.max(1, ...items.map((i) => i.rateLimited));
  const bw = (W - left - 8) / Math.max(1, items.length);
  const total = items.reduce((a, i) => a + i.requests, 0);
  const limited = items.reduce((a, i) => a + i.rateLimited, 0);
  const days = items.flatMap((i, n) =>
    new Date(i.hour).getHours() === 0 ? [{ n, label: new Date(i.hour).toLocaleDateString(undefined, { weekday: 'short', day: 'numeric' }) }] : [],
  );
  return (
    <svg
      class="chart"
      viewBox={`0 0 ${W} ${H}`}
      role="img"
      aria-label={`Requests per hour over the last 7 days: ${total} requests, ${limited} rate-limited; the table below has every hour`}
    >
      <text x={4} y={top + 10} class="axis">
        {max}
      </text>
      <text x={4} y={axisY} class="axis">
        0
      </text>
      <text x={4} y={limTop + 10} class="axis limited-text">
        {maxLimited}
      </text>
      <text class="axis-title" transform={`translate(12 ${top + plotH / 2}) rotate(-90)`} text-anchor="middle">
        Requests
      </text>
      <text x={left + 6} y={limTop + 11} class="axis limited-text">
        rate-limited (own scale)
      </text>
      <line x1={left} x2={W - 8} y1={axisY} y2={axisY} class="axis-line" />
      <line x1={left} x2={left} y1={top} y2={limTop + limH} class="axis-line" />
      {items.map((i, n) => {
        const h = (i.requests / max) * plotH;
        const lh = (i.rateLimited / maxLimited) * limH;
        return (
          <g key={i.hour}>
            {i.requests ? (
              <rect x={left + n * bw} width={Math.max(1, bw - 1)} y={axisY - h} height={h} class="ok">
                <title>
                  {new Date(i.hour).toLocaleString()}: {i.requests} requests
                </title>
              </rect>
            ) : null}
            {i.rateLimited ? (
              <rect x={left + n * bw} width={Math.max(1, bw - 1)} y={limTop} height={lh} class="limited">
                <title>
                  {new Date(i.hour).toLocaleString()}: {i.rateLimited} rate-limited
                </title>
              </rect>
            ) : null}
          </g>
        );
      })}
      {days.map((d) => (
        <text key={d.n} x={left + d.n * bw} y={limTop + limH + 16} class="axis">
          {d.label}
        </text>
      ))}
      <text x={left + (W - left) / 2} y={H - 4} class="axis-title" text-anchor="middle">
        Hour (your time zone)
      </text>
    </svg>
  );
}

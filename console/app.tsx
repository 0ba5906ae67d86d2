import { render } from 'preact';
import { useEffect, useRef, useState } from 'preact/hooks';
import { client, currentToken, messageOf, ok, rateLimitedUntil, whenUnauthorized } from './api/client';
import { completeSignIn, discover, loadConfig, signIn, signOut, type Config } from './auth';
import { go, href, parseHash, route } from './router';
import { SECTIONS } from './sections';
import { Button, ErrorBox, RANK } from './ui';

/**
 * The console page (GET /console): Preact with signals, rendered from TSX by the project's esbuild
 * (local/console-assets.ts, lib/console.ts). This file is the shell: sign-in, the workspace, the navigation
 * and the open section; each section is one file in sections/ and loads only what it shows.
 */
type Me = Awaited<ReturnType<typeof loadMe>>;
const loadMe = async () => ok(await client.GET('/console/api/me'));

function RateLimitNotice() {
  const until = rateLimitedUntil.value;
  const [, tick] = useState(0);
  useEffect(() => {
    if (until === null) return;
    const t = setInterval(() => tick((n) => n + 1), 1000);
    return () => clearInterval(t);
  }, [until]);
  if (until === null) return null;
  const seconds = Math.max(0, Math.ceil((until - Date.now()) / 1000));
  return (
    <p class="notice" role="status">
      Too many requests: the console retries in {seconds} s (at {new Date(until).toLocaleTimeString()}).
    </p>
  );
}

function Shell({ cfg, me }: { cfg: Config; me: Me }) {
  const r = route.value;
  const membership = me.memberships.find((m) => m.workspaceId === r.workspace) ?? me.memberships[0];
  const heading = useRef<HTMLHeadingElement>(null);
  const visible = membership ? SECTIONS.filter((s) => RANK[membership.role] >= RANK[s.minRole]) : [];
  const section = visible.find((s) => s.id === r.section) ?? visible[0];
  useEffect(() => {
    // A new view: focus its heading (a screen reader announces where the person is).
    if (document.activeElement === document.body || document.activeElement?.closest('nav')) heading.current?.focus();
  }, [section?.id, membership?.workspaceId]);
  useEffect(() => {
    document.title = section ? `${section.title} · Time-tracking console` : 'Time-tracking console';
  }, [section?.id]);
  if (!membership || !section) return <p>{me.email} is not a member of any workspace yet. Ask a workspace owner to add you.</p>;
  const first = me.memberships[0]?.workspaceId;
  const View = section.view;
  return (
    <>
      <div class="bar">
        {me.memberships.length > 1 ? (
          <label>
            Workspace{' '}
            <select value={membership.workspaceId} onChange={(e) => go(section.id, null, e.currentTarget.value === first ? null : e.currentTarget.value)}>
              {me.memberships.map((m) => (
                <option key={m.workspaceId} value={m.workspaceId}>
                  {m.workspaceId} ({m.role})
                </option>
              ))}
            </select>
          </label>
        ) : (
          <span>Workspace {membership.workspaceId}</span>
        )}
        <span class="note">Your role: {membership.role}</span>
      </div>
      <nav aria-label="Sections">
        <ul>
          {visible.map((s) => (
            <li key={s.id}>
              <a href={href(s.id, null)} aria-current={s.id === section.id ? 'page' : undefined}>
                {s.title}
              </a>
            </li>
          ))}
        </ul>
      </nav>
      <RateLimitNotice />
      <section class="panel" aria-labelledby="section-heading">
        <h2 id="section-heading" tabIndex={-1} ref={heading}>
          {section.title}
        </h2>
        <View key={`${membership.workspaceId}/${section.id}`} workspaceId={membership.workspaceId} role={membership.role} cfg={cfg} id={section.id === r.section ? r.id : null} />
      </section>
    </>
  );
}

function SignedOut({ error }: { error: unknown }) {
  const [busy, setBusy] = useState(false);
  return (
    <>
      <ErrorBox error={error} />
      <p>Sign in with your workspace account to manage its API keys.</p>
      <Button
        busy={busy}
        onClick={() => {
          setBusy(true);
          void signIn({ silent: false });
        }}
      >
        Sign in
      </Button>
    </>
  );
}

function Who({ me }: { me: Me }) {
  return (
    <>
      <span>{me.email}</span>
      <button type="button" onClick={() => signOut(currentToken())}>
        Sign out
      </button>
    </>
  );
}

async function main() {
  const app = document.getElementById('app')!;
  app.replaceChildren(); // the server's "Loading…" goes: Preact renders into an empty element
  render(<p role="status">Signing in…</p>, app);
  const cfg = await loadConfig();
  await discover(cfg);
  let outcome: Awaited<ReturnType<typeof completeSignIn>>;
  try {
    outcome = await completeSignIn();
  } catch (err) {
    render(<SignedOut error={new Error(`Sign-in failed: ${messageOf(err)}`)} />, app);
    return;
  }
  // A reload (or a first visit): ask the provider silently; its session, if any, signs the person in without a form.
  if (outcome === 'none') return signIn({ silent: true });
  // The view the person was on before the round trip (replaceState fires no hashchange).
  route.value = parseHash(location.hash);
  if (outcome === 'signed-out') return render(<SignedOut error={null} />, app);
  // An expired token: renew it the same way, back to the same view (not in a loop: a token refused within a
  // minute of its sign-in is an error to show, not one to renew).
  const signedInAt = Date.now();
  whenUnauthorized(() => {
    if (Date.now() - signedInAt > 60_000) void signIn({ silent: true });
  });
  const me = await loadMe();
  render(<Who me={me} />, document.getElementById('who')!);
  render(<Shell cfg={cfg} me={me} />, app);
}

main().catch((err: unknown) => render(<ErrorBox error={err} />, document.getElementById('app')!));

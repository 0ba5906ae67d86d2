import type { ButtonHTMLAttributes, ComponentChildren } from 'preact';
import { useEffect, useId, useRef, useState } from 'preact/hooks';
import type { Role } from './api/client';

/** The parts every section uses: busy buttons, dialogs, fields with their errors, scrolling tables, copy. */
export const RANK: Record<Role, number> = { viewer: 1, admin: 2, owner: 3 };
export const fmt = (iso: string | null | undefined) => (iso ? new Date(iso).toLocaleString() : '—');

/**
 * One action at a time: `run` ignores a call while the previous one runs (a double-click starts one request,
 * even before the disabled state is drawn) and keeps the error of the last one.
 */
export function useAction() {
  const running = useRef(false);
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<unknown>(null);
  const run = async (fn: () => Promise<void>) => {
    if (running.current) return;
    running.current = true;
    setBusy(true);
    setError(null);
    try {
      await fn();
    } catch (err) {
      setError(err);
    } finally {
      running.current = false;
      setBusy(false);
    }
  };
  return { busy, error, run, setError };
}

type ButtonProps = ButtonHTMLAttributes<HTMLButtonElement> & { busy?: boolean };
/** A button that is disabled with a busy mark while its request runs (the mark is not part of its name). */
export function Button({ busy = false, children, type = 'button', disabled, ...rest }: ButtonProps) {
  return (
    <button type={type} disabled={busy || disabled} aria-busy={busy ? 'true' : undefined} {...rest}>
      {children}
      {busy ? <span class="spinner" aria-hidden="true" /> : null}
    </button>
  );
}

export function ErrorBox({ error }: { error: unknown }) {
  if (!error) return null;
  return (
    <p class="error" role="alert">
      {error instanceof Error ? error.message : String(error)}
    </p>
  );
}

/** A modal dialog (the browser's own): focus moves into it, Escape or Cancel closes it. */
export function Dialog({ title, onClose, children }: { title: string; onClose: () => void; children: ComponentChildren }) {
  const ref = useRef<HTMLDialogElement>(null);
  const id = useId();
  useEffect(() => {
    const el = ref.current;
    if (el && !el.open) el.showModal();
    return () => el?.close();
  }, []);
  return (
    <dialog
      ref={ref}
      aria-labelledby={id}
      onCancel={(e) => {
        e.preventDefault();
        onClose();
      }}
    >
      <h3 id={id}>{title}</h3>
      {children}
    </dialog>
  );
}

/** A labelled control with its error tied to it (aria-invalid, aria-describedby). */
export function Field({ label, error, hint, children }: { label: string; error?: string | undefined; hint?: string; children: (a: FieldAttrs) => ComponentChildren }) {
  const id = useId();
  const describedBy = [error ? `${id}-error` : '', hint ? `${id}-hint` : ''].filter(Boolean).join(' ') || undefined;
  return (
    <div class="field">
      <label for={id}>{label}</label>
      {children({ id, 'aria-invalid': error ? 'true' : undefined, 'aria-describedby': describedBy })}
      {hint ? (
        <span class="note" id={`${id}-hint`}>
          {hint}
        </span>
      ) : null}
      {error ? (
        <span class="field-error" id={`${id}-error`}>
          {error}
        </span>
      ) : null}
    </div>
  );
}
export interface FieldAttrs {
  id: string;
  'aria-invalid': 'true' | undefined;
  'aria-describedby': string | undefined;
}

/**
 * A table that scrolls inside its own box on a narrow screen (the page itself never scrolls sideways).
 * `cards`: below 40rem each row is a card instead (app.css, `table.cards`): its cells stacked, each named by
 * its `data-label` (the column's header), so nothing sits behind a sideways scroll.
 */
export function TableBox({ label, cards = false, children }: { label: string; cards?: boolean; children: ComponentChildren }) {
  return (
    <div class="table-box" role="region" aria-label={`${label} table`} tabIndex={0}>
      <table aria-label={label} class={cards ? 'cards' : undefined}>
        {children}
      </table>
    </div>
  );
}

/** Copies a secret; says "Copied" when it did. */
export function CopyButton({ text, label = 'Copy' }: { text: string; label?: string }) {
  const [state, setState] = useState<'idle' | 'copied' | 'failed'>('idle');
  return (
    <>
      <button
        type="button"
        onClick={() => {
          navigator.clipboard
            .writeText(text)
            .then(() => setState('copied'))
            .catch(() => setState('failed'));
        }}
      >
        {label}
      </button>{' '}
      <span role="status">{state === 'copied' ? 'Copied' : state === 'failed' ? 'Copy failed: select the text and copy it' : ''}</span>
    </>
  );
}

/** Moves focus to the element when it appears (an action's result). */
export function useFocus<T extends HTMLElement>(when: unknown = true) {
  const ref = useRef<T>(null);
  useEffect(() => {
    if (when) ref.current?.focus();
  }, [when]);
  return ref;
}

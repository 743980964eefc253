import type { ComponentChildren } from 'preact';

/**
 * The buttons at the foot of a console form: the submit button (off while the form is sending), an optional Cancel,
 * and "Sending…" announced to screen readers while the call is on its way.
 */
export function FormButtons({ submit, busy, onCancel, cancel = 'Cancel' }: { submit: ComponentChildren; busy: boolean; onCancel?: () => void; cancel?: string }) {
  return (
    <div class="form-buttons">
      <button type="submit" class="primary" disabled={busy}>
        {submit}
      </button>
      {onCancel ? (
        <button type="button" onClick={onCancel}>
          {cancel}
        </button>
      ) : null}
      {busy ? (
        <span role="status" class="muted">
          Sending…
        </span>
      ) : null}
    </div>
  );
}

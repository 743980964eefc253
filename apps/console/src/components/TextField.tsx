import type { ComponentChildren } from 'preact';

/** What a field's control gets from it: its id and name, and what ties it to its hint and error. */
export interface ControlProps {
  id: string;
  name: string;
  'aria-describedby'?: string;
  'aria-invalid'?: 'true';
}

/** A labelled control with its hint and its error, tied to it by `aria-describedby`. */
export function TextField({
  id,
  name,
  label,
  hint,
  error,
  class: className,
  children,
}: {
  id: string;
  name: string;
  label: string;
  hint?: ComponentChildren;
  error?: string;
  class?: string;
  children: (common: ControlProps) => ComponentChildren;
}) {
  const describedBy = [hint ? `${id}-hint` : null, error ? `${id}-error` : null].filter(Boolean).join(' ') || undefined;
  return (
    <div class={className ? `field ${className}` : 'field'}>
      <label for={id}>{label}</label>
      {children({ id, name, 'aria-describedby': describedBy, 'aria-invalid': error ? 'true' : undefined })}
      {hint ? (
        <p id={`${id}-hint`} class="hint">
          {hint}
        </p>
      ) : null}
      {error ? (
        <p id={`${id}-error`} class="field-error">
          {error}
        </p>
      ) : null}
    </div>
  );
}

import type { ComponentChildren } from 'preact';
import { navigate } from '../router';

/** A link to a page of the console, followed without a page load (a modified click still opens a new tab). */
export function Link({ href, children, class: className, current = false }: { href: string; children: ComponentChildren; class?: string; current?: boolean }) {
  const onClick = (event: MouseEvent) => {
    if (event.defaultPrevented || event.button !== 0 || event.metaKey || event.ctrlKey || event.shiftKey || event.altKey) return;
    event.preventDefault();
    navigate(href);
  };
  return (
    <a href={href} class={className} onClick={onClick} aria-current={current ? 'page' : undefined}>
      {children}
    </a>
  );
}

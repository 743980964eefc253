/**
 * Elements made in code, as a template would write them: attributes and children, never HTML text (what the API
 * answers is put in as text only) and never a style attribute (the CSP allows none; portal.css has the classes).
 */
type Attributes = Readonly<Record<string, string | number | boolean | null | undefined>>;
export type Child = Node | string | null | undefined | false;

export function el<K extends keyof HTMLElementTagNameMap>(tag: K, attributes: Attributes = {}, ...children: Child[]): HTMLElementTagNameMap[K] {
  const element = document.createElement(tag);
  for (const [name, value] of Object.entries(attributes)) {
    if (value === true) element.setAttribute(name, '');
    else if (value !== false && value !== null && value !== undefined) element.setAttribute(name, String(value));
  }
  element.append(...children.filter((c): c is Node | string => c !== null && c !== undefined && c !== false));
  return element;
}

/** Moves the focus to `element` (a heading or a problem made focusable with tabindex=-1) and brings it into view. */
export function focusOn(element: HTMLElement): void {
  element.focus({ preventScroll: true });
  element.scrollIntoView({ block: 'nearest' });
}

import { useEffect } from 'preact/hooks';

export const PRODUCT_NAME = 'DSAR console';

/** The window's title for a page: its own name first, then the product. */
export function useTitle(title: string): void {
  useEffect(() => {
    document.title = `${title} – ${PRODUCT_NAME}`;
  }, [title]);
}

import { useEffect, useState } from 'preact/hooks';
import { NAVIGATED } from './router';

export interface ConsoleLocation {
  pathname: string;
  search: string;
}

function current(): ConsoleLocation {
  return { pathname: window.location.pathname, search: window.location.search };
}

/** The address, kept current through `navigate` and the browser's back and forward buttons. */
export function useLocation(): ConsoleLocation {
  const [location, setLocation] = useState(current);
  useEffect(() => {
    const update = () =>
      setLocation((before) => {
        const now = current();
        return now.pathname === before.pathname && now.search === before.search ? before : now;
      });
    window.addEventListener('popstate', update);
    window.addEventListener(NAVIGATED, update);
    return () => {
      window.removeEventListener('popstate', update);
      window.removeEventListener(NAVIGATED, update);
    };
  }, []);
  return location;
}

import { Link } from '../components/Link';
import { QUEUE_PATH } from '../router';
import { useTitle } from '../use-title';

/** A path under /console/ that names no page. */
export function NotFoundPage() {
  useTitle('Not found');
  return (
    <>
      <h1 tabIndex={-1}>Page not found</h1>
      <p>
        The console has no page at this address. <Link href={QUEUE_PATH}>Go to the requests</Link>.
      </p>
    </>
  );
}

import type { ManifestView } from '@dsar/contracts';

/* The manifest as the Manifest and review tab shows it (docs/fulfilment.md). */

export const VALIDATION_STATE_LABELS: Readonly<Record<NonNullable<ManifestView['validationState']>, string>> = {
  pending: 'Waiting for review',
  approved: 'Approved',
  rejected: 'Rejected',
};

/** The state of the manifest in words: a request without one has nothing to review. */
export function manifestStateWords(manifest: Pick<ManifestView, 'version' | 'validationState'>): string {
  if (manifest.version === 0 || manifest.validationState === null) return 'No manifest yet';
  return `${VALIDATION_STATE_LABELS[manifest.validationState]} (version ${manifest.version})`;
}

/** The latest review in words, and whether it still holds for the manifest as it is. */
export function reviewWords(review: ManifestView['review']): string | null {
  if (!review) return null;
  const what = review.action === 'approved' ? 'Approved' : 'Rejected';
  const outdated = review.outdated ? ', since changed: review it again' : '';
  return `${what} by ${review.by} (version ${review.version}${outdated})`;
}

/** Whether a review can be asked for now: a manifest exists and waits for one. */
export function reviewable(manifest: Pick<ManifestView, 'version' | 'validationState'>): boolean {
  return manifest.version > 0 && manifest.validationState === 'pending';
}

/** The four-eyes refusal (403): whoever uploaded or replaced an artifact may not review the manifest. */
export const FOUR_EYES_CODE = 'SVC-BE-1213';

import type { ArtifactType } from '@dsar/contracts';

/*
 * Files as the request's tabs show and send them: sizes and hashes in words, and the headers of a raw upload
 * (fulfilment-routes.ts: the body is the file's bytes, what it is goes in `x-artifact-*` headers).
 */

export const ARTIFACT_TYPE_LABELS: Readonly<Record<ArtifactType, string>> = {
  profile_data: 'Profile data',
  account_data: 'Account data',
  support_tickets: 'Support tickets',
  audit_logs: 'Audit logs',
  other: 'Other',
};

const UNITS = ['KB', 'MB', 'GB', 'TB'] as const;

/** A size in bytes as people read it: `812 bytes`, `1.5 KB`, `20 MB` (powers of 1024, one decimal under 10). */
export function formatBytes(size: number): string {
  if (!Number.isFinite(size) || size < 0) return '';
  if (size < 1024) return size === 1 ? '1 byte' : `${size} bytes`;
  let value = size / 1024;
  let unit = 0;
  while (value >= 1024 && unit < UNITS.length - 1) {
    value /= 1024;
    unit += 1;
  }
  const rounded = value < 10 ? Math.round(value * 10) / 10 : Math.round(value);
  return `${rounded} ${UNITS[unit]}`;
}

/** The first 12 hex digits of a sha256: enough to tell two files apart on screen; the whole goes in a `title`. */
export function shortHash(sha256: string): string {
  return sha256.length > 12 ? `${sha256.slice(0, 12)}…` : sha256;
}

/** A text header the API takes URL-encoded (UTF-8): a file name or a title with any characters. */
export function encodedHeaderText(text: string): string {
  return encodeURIComponent(text);
}

/** The media type a file is sent as: what the browser recognized, else plain bytes. */
export function mediaTypeOf(file: { type: string }): string {
  return file.type.trim() !== '' ? file.type : 'application/octet-stream';
}

export interface ArtifactUpload {
  filename: string;
  mediaType: string;
  /** Blank: the API's default (the file name, or the artifact's title for a replacement). */
  title?: string;
  /** Absent: the API's default (`other`, or the artifact's type for a replacement). */
  type?: ArtifactType | '';
  /** A replacement's only: why the file was replaced (what was redacted). */
  redactionReason?: string;
}

/** The `x-artifact-*` headers of an upload or a replacement; blank optional values are left to the API's defaults. */
export function artifactUploadHeaders(upload: ArtifactUpload): Record<string, string> {
  const headers: Record<string, string> = {
    'x-artifact-filename': encodedHeaderText(upload.filename),
    'x-artifact-content-type': upload.mediaType,
  };
  const title = upload.title?.trim();
  if (title) headers['x-artifact-title'] = encodedHeaderText(title);
  if (upload.type) headers['x-artifact-type'] = upload.type;
  const reason = upload.redactionReason?.trim();
  if (reason) headers['x-artifact-redaction-reason'] = encodedHeaderText(reason);
  return headers;
}

/** Image types a browser draws from a `data:` URL (the CSP allows images from `data:` only, besides the console's own). */
const PREVIEWABLE = ['image/png', 'image/jpeg', 'image/gif', 'image/webp'];

/** Whether a file of this media type can be previewed in the page. */
export function isPreviewable(mediaType: string): boolean {
  return PREVIEWABLE.includes(mediaType.split(';')[0].trim().toLowerCase());
}

import { ProblemError } from '@dsar/platform/errors';

/** A JSON media type (`application/json`, `application/*+json`), parameters allowed. */
export const JSON_MEDIA_TYPE = /^application\/(?:[\w.+-]+\+)?json\s*(?:;|$)/i;

/** Any multipart media type (`multipart/form-data`, `multipart/mixed`, …), parameters allowed. */
const MULTIPART_MEDIA_TYPE = /^multipart\/[\w.+-]+\s*(?:;|$)/i;

/**
 * The 415 of an upload whose Content-Type says the body is not the file itself, or undefined when it may be.
 * An upload's body is stored byte for byte as the artifact or the evidence, so:
 * - a multipart body (`curl -F`, an HTML form) would be stored with its form envelope (boundaries and part
 *   headers) as the file, and could be approved and delivered so. Refused rather than unpacked: one way to send a
 *   file keeps the stored bytes exactly the bytes sent, and the size limits see the file's real size;
 * - a JSON body is how commands are sent: one labelled so was most likely meant for another route.
 * `typeHeader` names the header the file's own media type goes in.
 */
export function uploadBodyTypeProblem(contentType: string | undefined, typeHeader: string): ProblemError | undefined {
  if (contentType === undefined) return undefined;
  const sent = contentType.split(';')[0].trim();
  if (MULTIPART_MEDIA_TYPE.test(contentType)) {
    return new ProblemError(
      'UNSUPPORTED_MEDIA_TYPE',
      `An upload's body is the file's raw bytes, not a form (${sent}): send them as application/octet-stream (curl --data-binary @file, not -F); the file's own media type goes in ${typeHeader}.`,
    );
  }
  if (JSON_MEDIA_TYPE.test(contentType)) {
    return new ProblemError('UNSUPPORTED_MEDIA_TYPE', `An upload's body is the file, sent as application/octet-stream; its own media type goes in ${typeHeader}, not in Content-Type (${sent}).`);
  }
  return undefined;
}

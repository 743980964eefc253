import { randomBytes } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { dataDirSecret } from './data-dir-secret';
import { secretFileField, secretTextField } from './secret-file';

/**
 * A secret given as a list of keys rather than one (REQUEST_REFERENCE_KEY, IDENTITY_INDEX_KEY): the keys separated by
 * commas or line breaks, the current one first and the earlier ones after it while a rotation runs its course.
 */

/** The shortest key of a list accepted, in bytes (the HMAC-SHA256 output size). */
export const KEY_LIST_MIN_LENGTH = 32;

export const KEY_HOW_TO = 'make one with: openssl rand -base64 32';

/** The keys of the setting's text: separated by commas or line breaks, surrounding white space and blank entries dropped. */
export function keyListTexts(text: string): string[] {
  return text
    .split(/[,\r\n]/)
    .map((entry) => entry.trim())
    .filter((entry) => entry !== '');
}

/** What is wrong with the setting's text, naming keys by position (never by value). */
export function keyListProblem(text: string): string | undefined {
  const keys = keyListTexts(text);
  if (keys.length === 0) return `must hold a key of at least ${KEY_LIST_MIN_LENGTH} bytes; ${KEY_HOW_TO}`;
  const short = keys.flatMap((key, i) => (Buffer.byteLength(key, 'utf8') < KEY_LIST_MIN_LENGTH ? [i + 1] : []));
  if (short.length === 0) return undefined;
  const which = keys.length === 1 ? 'the key is' : `key ${short.join(', ')} of ${keys.length} ${short.length === 1 ? 'is' : 'are'}`;
  return `${which} shorter than ${KEY_LIST_MIN_LENGTH} bytes; ${KEY_HOW_TO}`;
}

/** The two environment fields of a key list: `<NAME>` as text, and `<NAME>_FILE`, a file holding it. */
export function keyListFields() {
  return {
    text: secretTextField(keyListProblem),
    file: secretFileField(keyListProblem),
  };
}

/** The configured keys, the current one first, from the text or else its file; empty when neither is set. */
export function keyListFrom(text: string | undefined, file: string | undefined): string[] {
  const given = text ?? (file ? readFileSync(file, 'utf8') : undefined);
  return given === undefined ? [] : keyListTexts(given);
}

/** A development key list of one key, kept in DATA_DIR/<fileName> (mode 0600) like the other development secrets. */
export async function ensureDevKeyList(dataDir: string, fileName: string): Promise<{ key: string; path?: string }> {
  const { value, path } = await dataDirSecret(
    dataDir,
    fileName,
    () => randomBytes(32).toString('base64url'),
    (text, file) => {
      const problem = keyListProblem(text);
      if (problem) throw new Error(`${file}: ${problem}, or delete it to get a new one`);
      return text.trim();
    },
  );
  return { key: value, path };
}

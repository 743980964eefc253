import { readFile } from 'node:fs/promises';
import { CliError, usage } from './errors';

export type JsonObject = Record<string, unknown>;

async function readStdin(): Promise<string> {
  const chunks: Buffer[] = [];
  for await (const chunk of process.stdin) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks).toString('utf8');
}

async function readText(file: string): Promise<string> {
  try {
    return await readFile(file, 'utf8');
  } catch (e) {
    throw CliError.of('CLI-FILE', `cannot read ${file}: ${(e as Error).message}`);
  }
}

/** JSON text given as itself, as `@file`, or as `-` (standard input). */
export async function readJsonArgument(value: string, flag: string): Promise<unknown> {
  const text = value === '-' ? await readStdin() : value.startsWith('@') ? await readText(value.slice(1)) : value;
  try {
    return JSON.parse(text) as unknown;
  } catch (e) {
    throw usage(`${flag} is not JSON: ${(e as Error).message}`);
  }
}

/** The body `--data` gives (a JSON object), or an empty one. */
export async function dataBody(data: string | undefined): Promise<JsonObject> {
  if (data === undefined) return {};
  const body = await readJsonArgument(data, '--data');
  if (typeof body !== 'object' || body === null || Array.isArray(body)) throw usage('--data must be a JSON object');
  return body as JsonObject;
}

/** Sets `a.b.c` in an object, making the objects on the way; a flag overrides what `--data` gave. */
export function setPath(target: JsonObject, path: string, value: unknown): void {
  const keys = path.split('.');
  let node = target;
  for (const key of keys.slice(0, -1)) {
    const next = node[key];
    if (typeof next !== 'object' || next === null || Array.isArray(next)) node[key] = {};
    node = node[key] as JsonObject;
  }
  node[keys[keys.length - 1]] = value;
}

/** Reads `a.b.c` of an object. */
export function getPath(source: unknown, path: string): unknown {
  let node = source;
  for (const key of path.split('.')) {
    if (typeof node !== 'object' || node === null) return undefined;
    node = (node as JsonObject)[key];
  }
  return node;
}

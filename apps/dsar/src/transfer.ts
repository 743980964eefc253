import { basename, extname } from 'node:path';
import type { Command } from 'commander';
import type { Call, Saved } from './api-client';
import type { Endpoint } from './endpoints';
import { usage } from './errors';
import { type Context, examples, type Kit, paramsOf } from './kit';

/** Media types by file extension, for `--content-type`'s default. */
const MEDIA_TYPES: Readonly<Record<string, string>> = {
  '.pdf': 'application/pdf',
  '.json': 'application/json',
  '.jsonl': 'application/x-ndjson',
  '.csv': 'text/csv',
  '.txt': 'text/plain',
  '.html': 'text/html',
  '.xml': 'application/xml',
  '.zip': 'application/zip',
  '.gz': 'application/gzip',
  '.tar': 'application/x-tar',
  '.png': 'image/png',
  '.jpg': 'image/jpeg',
  '.jpeg': 'image/jpeg',
  '.gif': 'image/gif',
  '.webp': 'image/webp',
  '.tif': 'image/tiff',
  '.tiff': 'image/tiff',
  '.heic': 'image/heic',
};

export function mediaTypeOf(file: string): string | undefined {
  return MEDIA_TYPES[extname(file).toLowerCase()];
}

/** A header an upload sends from a flag. */
export interface UploadHeader {
  flags: string;
  description: string;
  header: string;
  /** Sent URL-encoded (UTF-8): file names and titles. */
  encode?: boolean;
  /** The value when the flag is not given, from the file's path (`-` for standard input); undefined sends nothing. */
  fallback?: (file: string) => string | undefined;
}

export interface UploadSpec {
  name: string;
  summary: string;
  endpoint: Endpoint;
  headers: readonly UploadHeader[];
  examples: readonly string[];
}

/** The default of a file name header: the file's own name. */
export const fileName = (file: string): string | undefined => (file === '-' ? undefined : basename(file));

/** A command that streams `--file` (or standard input) as the raw body of an upload route, with a progress bar on a terminal. */
export function uploadCommand(kit: Kit, parent: Command, spec: UploadSpec): Command {
  const cmd = parent.command(spec.name).description(spec.summary).requiredOption('--file <path>', 'the file to upload, streamed as it is read; - for standard input');
  const headers = spec.headers.map((h) => {
    cmd.option(h.flags, h.description);
    return { ...h, key: cmd.options[cmd.options.length - 1].attributeName() };
  });
  examples(cmd, spec.examples);
  return kit.act(cmd, [spec.endpoint], async (ctx, args, opts) => {
    const file = opts.file as string;
    const sent: Record<string, string | undefined> = {};
    for (const h of headers) {
      const value = (opts[h.key] as string | undefined) ?? h.fallback?.(file);
      sent[h.header] = value === undefined ? undefined : h.encode ? encodeURIComponent(value) : value;
    }
    const answer = await ctx.api.call({ endpoint: spec.endpoint, params: paramsOf(cmd, args), headers: sent, upload: file });
    return { data: answer.body };
  });
}

/** `--range 0-1023` or `--range bytes=0-1023`: the `Range` header of a partial download. */
export function rangeHeader(range: string | undefined): string | undefined {
  if (range === undefined) return undefined;
  const value = range.startsWith('bytes=') ? range : `bytes=${range}`;
  if (!/^bytes=(\d+-\d*|-\d+)$/.test(value)) throw usage(`--range must be start-end, start- or -suffix (bytes): ${range}`);
  return value;
}

/** What a download prints: where the bytes went, how many, their sha256 and the answer's file headers. */
export function savedData(saved: Saved): Record<string, unknown> {
  const header = (name: string) => saved.headers.get(name) ?? undefined;
  return {
    file: saved.file,
    bytes: saved.bytes,
    sha256: saved.sha256,
    status: saved.status,
    contentType: header('content-type'),
    contentRange: header('content-range'),
    etag: header('etag'),
    contentDisposition: header('content-disposition'),
  };
}

/** Streams a file answer to `--out` (standard output for `-`); the envelope is printed unless the bytes went to standard output. */
export async function download(ctx: Context, call: Call, out: string): Promise<{ data: unknown } | undefined> {
  const saved = await ctx.api.save(call, out, `download ${basename(out)}`);
  return out === '-' ? undefined : { data: savedData(saved) };
}

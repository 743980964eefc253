import { Injectable } from '@nestjs/common';
import type { AuditEntry, AuditExport, AuditExportFormat } from '@dsar/contracts';
import { ProblemError } from '@dsar/platform/errors';
import { csvText } from '@dsar/platform/http';
import { canonicalJson, readEntry, type StoredEntry } from '@dsar/platform/audit-chain';
import { type ChainView, Ledger } from './ledger';

/** CSV columns, in order; `payload` holds the RFC 8785 JSON of the payload, as stored and hashed. */
const CSV_COLUMNS = ['sequence', 'eventId', 'eventType', 'occurredAt', 'recordedAt', 'actor', 'source', 'tenantId', 'requestId', 'payload', 'prevHash', 'hash'] as const;

const CSV_HEADER = csvText([CSV_COLUMNS]);

/** The rows of a page; csvText escapes any cell a spreadsheet could run as a formula (an actor is whatever a token's `sub` says). */
function csvEntries(entries: readonly StoredEntry[]): string {
  return csvText(entries.map((e) => CSV_COLUMNS.map((c) => String(c === 'payload' ? e.payloadJson : e[c]))));
}

/** The last sequence retention purged (0 for none): the stored chain starts after it. */
function lastPurged(view: ChainView): number {
  return view.purgedPrefix?.throughSequence ?? 0;
}

/** A streamed export: what the response headers say, and the file's text a page at a time. */
export interface ExportStream {
  view: ChainView;
  chunks: AsyncGenerator<string>;
}

/**
 * `GET /requests/:id/audit/export`: the chain as of its head when the export
 * starts (later appends are not included, so the root hash always matches
 * the last entry), as a JSON body or a streamed JSON Lines or CSV file.
 */
@Injectable()
export class ChainExport {
  constructor(private readonly ledger: Ledger) {}

  async snapshot(tenantId: string, requestId: string, format: AuditExportFormat): Promise<AuditExport> {
    const view = await this.requireView(tenantId, requestId);
    const events: AuditEntry[] = [];
    let content = format === 'csv' ? CSV_HEADER : undefined;
    for await (const page of this.ledger.entries(tenantId, requestId, view.head.sequence, lastPurged(view))) {
      events.push(...page.map(readEntry));
      if (content !== undefined) content += csvEntries(page);
    }
    return {
      requestId,
      format,
      events,
      rootHash: view.head.hash,
      headSequence: view.head.sequence,
      purgedPrefix: view.purgedPrefix ?? null,
      ...(content !== undefined ? { content } : {}),
    };
  }

  /** Checks the chain exists first, so a missing one is a 404 rather than an empty file. */
  async stream(tenantId: string, requestId: string, format: AuditExportFormat): Promise<ExportStream> {
    const view = await this.requireView(tenantId, requestId);
    const ledger = this.ledger;
    async function* chunks(): AsyncGenerator<string> {
      if (format === 'csv') yield CSV_HEADER;
      for await (const page of ledger.entries(tenantId, requestId, view.head.sequence, lastPurged(view))) {
        yield format === 'csv' ? csvEntries(page) : page.map((e) => `${canonicalJson(readEntry(e))}\n`).join('');
      }
    }
    return { view, chunks: chunks() };
  }

  private async requireView(tenantId: string, requestId: string): Promise<ChainView> {
    const view = await this.ledger.view(tenantId, requestId);
    if (!view) throw new ProblemError('RESOURCE_NOT_FOUND', `No audit chain for request ${requestId}.`);
    return view;
  }
}

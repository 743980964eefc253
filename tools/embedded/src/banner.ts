import type { EmbeddedConfig } from './config';
import type { RunningSystem } from './system';

/** What `npm start` prints once the system is up: `text` on standard output, `warnings` on standard error. */
export interface StartBanner {
  text: string;
  warnings: string[];
}

const EVERY_INTERFACE = new Set(['0.0.0.0', '::']);
const LOOPBACK = /^(127\.\d{1,3}\.\d{1,3}\.\d{1,3}|::1|::ffff:127\.\d{1,3}\.\d{1,3}\.\d{1,3})$/;

/** host:port, an IPv6 address in brackets. */
const hostPort = (address: string, port: number) => (address.includes(':') ? `[${address}]:${port}` : `${address}:${port}`);

/**
 * The start banner. It names the address the gateway is bound to rather than the URL it is reached at (which is the
 * loopback one even when every interface listens), since an admin key is printed beside it.
 */
export function startBanner(
  config: Pick<EmbeddedConfig, 'DB_DRIVER' | 'DATA_DIR' | 'BUS_DRIVER'>,
  system: Pick<RunningSystem, 'gatewayUrl' | 'listening' | 'devToken' | 'reviewerToken' | 'leftoverDevToken' | 'leftoverReviewerToken' | 'auditKeyId'>,
): StartBanner {
  const url = system.gatewayUrl;
  const lines = [
    `DSAR service running in embedded mode on ${url} (database: ${config.DB_DRIVER}${config.DB_DRIVER === 'pglite' ? ` in ${config.DATA_DIR}` : ''}, bus: ${config.BUS_DRIVER})`,
    `API: ${url}/api/v1  reference: ${url}/api/docs  console: ${url}/console/`,
    listeningLine(system.listening),
  ];
  // The key id a verifier trusts (docs/audit.md#checkpoints), to note down now rather than derive with openssl.
  if (system.auditKeyId) lines.push(`Audit checkpoints are signed with key ${system.auditKeyId} (also at GET /api/v1/audit/checkpoints/keys).`);
  const warnings: string[] = [];
  if (system.devToken) {
    // Printed once per start, never logged: the log may be shipped elsewhere.
    lines.push(
      `No authentication configured: development admin key for tenant "default"${system.devToken.path ? ` (also in ${system.devToken.path})` : ''}:`,
      `  Authorization: Bearer ${system.devToken.token}`,
    );
    if (system.reviewerToken) {
      // A second principal: four eyes on manifest review refuses the key that uploaded the artifacts (SVC-BE-1213).
      lines.push(
        `Development reviewer key for tenant "default", role operator: a second person for four eyes${system.reviewerToken.path ? ` (also in ${system.reviewerToken.path})` : ''}:`,
        `  Authorization: Bearer ${system.reviewerToken.token}`,
      );
    }
    if (!isLoopback(system.listening.address)) {
      warnings.push(
        `warning: the development ${system.reviewerToken ? 'admin and reviewer keys are' : 'admin key is'} accepted from every machine that can reach ${hostPort(system.listening.address, system.listening.port)}; set DSAR_API_KEYS, or HOST=127.0.0.1`,
      );
    }
  }
  for (const leftover of [system.leftoverDevToken, system.leftoverReviewerToken]) {
    if (leftover) warnings.push(leftoverWarning(leftover));
  }
  return { text: `${lines.join('\n')}\n`, warnings };
}

/** A development key's file left in DATA_DIR while authentication is configured: why its key answers 401. */
function leftoverWarning({ path, configuredBy }: NonNullable<RunningSystem['leftoverDevToken']>): string {
  return (
    `warning: ${path} is not accepted: ${configuredBy.join(', ')} ${configuredBy.length > 1 ? 'are' : 'is'} set, so the development key in that file answers 401. ` +
    'Use a configured key; delete the file once nothing reads it (it is kept, and used again by a start without authentication).'
  );
}

function listeningLine({ address, port }: RunningSystem['listening']): string {
  if (EVERY_INTERFACE.has(address)) return `Listening on every interface (${hostPort(address, port)}): other machines can reach it.`;
  if (isLoopback(address)) return `Listening on ${hostPort(address, port)}: this machine only (HOST=0.0.0.0 opens it to the network).`;
  return `Listening on ${hostPort(address, port)}.`;
}

const isLoopback = (address: string) => LOOPBACK.test(address);

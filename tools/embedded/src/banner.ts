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
  system: Pick<RunningSystem, 'gatewayUrl' | 'listening' | 'devToken' | 'leftoverDevToken'>,
): StartBanner {
  const url = system.gatewayUrl;
  const lines = [
    `DSAR service running in embedded mode on ${url} (database: ${config.DB_DRIVER}${config.DB_DRIVER === 'pglite' ? ` in ${config.DATA_DIR}` : ''}, bus: ${config.BUS_DRIVER})`,
    `API: ${url}/api/v1  reference: ${url}/api/docs`,
    listeningLine(system.listening),
  ];
  const warnings: string[] = [];
  if (system.devToken) {
    // Printed once per start, never logged: the log may be shipped elsewhere.
    lines.push(
      `No authentication configured: development admin key for tenant "default"${system.devToken.path ? ` (also in ${system.devToken.path})` : ''}:`,
      `  Authorization: Bearer ${system.devToken.token}`,
    );
    if (!isLoopback(system.listening.address)) {
      warnings.push(
        `warning: the development admin key is accepted from every machine that can reach ${hostPort(system.listening.address, system.listening.port)}; set DSAR_API_KEYS, or HOST=127.0.0.1`,
      );
    }
  }
  if (system.leftoverDevToken) {
    const { path, configuredBy } = system.leftoverDevToken;
    warnings.push(
      `warning: ${path} is not accepted: ${configuredBy.join(', ')} ${configuredBy.length > 1 ? 'are' : 'is'} set, so the development key in that file answers 401. ` +
        'Use a configured key; delete the file once nothing reads it (it is kept, and used again by a start without authentication).',
    );
  }
  return { text: `${lines.join('\n')}\n`, warnings };
}

function listeningLine({ address, port }: RunningSystem['listening']): string {
  if (EVERY_INTERFACE.has(address)) return `Listening on every interface (${hostPort(address, port)}): other machines can reach it.`;
  if (isLoopback(address)) return `Listening on ${hostPort(address, port)}: this machine only (HOST=0.0.0.0 opens it to the network).`;
  return `Listening on ${hostPort(address, port)}.`;
}

const isLoopback = (address: string) => LOOPBACK.test(address);

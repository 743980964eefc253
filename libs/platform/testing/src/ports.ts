import { readFileSync } from 'node:fs';
import { randomInt } from 'node:crypto';
import { createServer } from 'node:net';

/** Where the kernel picks the local ports of outgoing connections (Linux's default when it cannot be read). */
function ephemeralPortsFrom(): number {
  try {
    const low = Number(readFileSync('/proc/sys/net/ipv4/ip_local_port_range', 'utf8').trim().split(/\s+/)[0]);
    return Number.isInteger(low) && low > 0 ? low : 32768;
  } catch {
    return 32768;
  }
}

const LOWEST = 20000;
/** Ports handed out by this process: two servers started together never get the same one. */
const handedOut = new Set<number>();

function canListen(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const server = createServer();
    server.once('error', () => resolve(false));
    server.listen(port, '127.0.0.1', () => server.close(() => resolve(true)));
  });
}

function kernelPort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address() as { port: number };
      server.close(() => resolve(port));
    });
  });
}

/**
 * A free loopback port for a server the tests or the benchmarks start, below the kernel's ephemeral range. A port
 * from `listen(0)` is in that range and is closed again before the server binds it; meanwhile any outgoing connection
 * (to PostgreSQL, to Kafka) may get it as its local port, and the server fails to start with EADDRINUSE, as a
 * benchmark's lifecycle-clock did. Below the range only another listener can take it. Where the range starts too low
 * to leave room, the kernel's choice it is.
 */
export async function freePort(): Promise<number> {
  const highest = Math.min(ephemeralPortsFrom(), 65536) - 1;
  if (highest - LOWEST < 1000) return kernelPort();
  for (let attempt = 0; attempt < 100; attempt++) {
    const port = randomInt(LOWEST, highest + 1);
    if (handedOut.has(port) || !(await canListen(port))) continue;
    handedOut.add(port);
    return port;
  }
  return kernelPort();
}

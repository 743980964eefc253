import { readFileSync } from 'node:fs';
import { createServer } from 'node:net';
import { freePort } from './ports';

const ephemeralFrom = Number(readFileSync('/proc/sys/net/ipv4/ip_local_port_range', 'utf8').trim().split(/\s+/)[0]);

describe('freePort', () => {
  it('hands out distinct free ports below the range of outgoing connections', async () => {
    const ports = new Set<number>();
    for (let i = 0; i < 40; i++) ports.add(await freePort());
    expect(ports.size).toBe(40);
    for (const port of ports) {
      expect(port).toBeGreaterThanOrEqual(20000);
      expect(port).toBeLessThan(ephemeralFrom);
    }
    // Each can be listened on.
    const port = [...ports][0];
    await new Promise<void>((resolve, reject) => {
      const server = createServer();
      server.once('error', reject);
      server.listen(port, '127.0.0.1', () => server.close(() => resolve()));
    });
  });
});

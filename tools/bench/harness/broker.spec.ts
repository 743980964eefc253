import { brokerOfStatus, outageRefusal } from './broker';

describe('the broker an outage may stop', () => {
  const status = (kafka: string) => `postgres: up on 127.0.0.1:5432\n${kafka}\ns3: up on http://127.0.0.1:9000 (pid 3)\n`;

  it("reads the broker deploy/local/infra.sh's status reports up", () => {
    expect(brokerOfStatus(status('kafka: up on 127.0.0.1:19092 (pid 4242)'))).toBe('127.0.0.1:19092');
    expect(brokerOfStatus(status('kafka: down'))).toBeUndefined();
    expect(brokerOfStatus('')).toBeUndefined();
  });

  it('stops the broker of the local infrastructure the run started or found', () => {
    expect(outageRefusal({ external: false, runBrokers: '127.0.0.1:9092', infraBroker: '127.0.0.1:9092' })).toBeUndefined();
  });

  it('stops a broker of external infrastructure only when DSAR_INFRA_DIR names the infra.sh environment that runs it', () => {
    expect(outageRefusal({ external: true, runBrokers: '127.0.0.1:9092', infraBroker: '127.0.0.1:9092' })).toMatch(
      /DSAR_INFRA=external .* 127\.0\.0\.1:9092: name the deploy\/local\/infra\.sh environment/,
    );
    expect(outageRefusal({ external: true, infraDir: '/tmp/x', runBrokers: '127.0.0.1:19092', infraBroker: '127.0.0.1:19092' })).toBeUndefined();
  });

  it('refuses when that environment runs no broker, or another one than the run uses', () => {
    expect(outageRefusal({ external: true, infraDir: '/tmp/x', runBrokers: '127.0.0.1:19092' })).toBe('deploy/local/infra.sh (DSAR_INFRA_DIR=/tmp/x) runs no broker');
    expect(outageRefusal({ external: true, infraDir: '/tmp/x', runBrokers: '127.0.0.1:19092', infraBroker: '127.0.0.1:9092' })).toBe(
      "the run's broker 127.0.0.1:19092 is not the one deploy/local/infra.sh (DSAR_INFRA_DIR=/tmp/x) runs (127.0.0.1:9092)",
    );
    expect(outageRefusal({ external: false, runBrokers: '127.0.0.1:9092' })).toBe('deploy/local/infra.sh runs no broker');
  });
});

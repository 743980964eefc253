import { QueryRunnerAlreadyReleasedError } from 'typeorm';
import { isInfrastructureUnavailable } from './infrastructure-unavailable';

const withCode = (code: string, message = 'x') => Object.assign(new Error(message), { code });

describe('isInfrastructureUnavailable', () => {
  it.each([
    ['a refused connection', withCode('ECONNREFUSED')],
    ['a reset connection', withCode('ECONNRESET')],
    ['a server shutting down (57P01)', withCode('57P01')],
    ['a server starting up (57P03)', withCode('57P03')],
    ['no connection slot left (53300)', withCode('53300')],
    ['a broken connection (class 08)', withCode('08006')],
    ['the pool waiting too long', new Error('timeout exceeded when trying to connect')],
    ['a connection that ended', new Error('Connection terminated unexpectedly')],
    ['a query on a client whose connection the server closed', new Error('Client was closed and is not queryable')],
    ['a connection attempt that timed out in the driver', new Error('timeout expired')],
    ['TypeORM wrapping the driver error', Object.assign(new Error('Query failed'), { driverError: withCode('57P01') })],
    ['an error with the cause inside', new Error('outer', { cause: withCode('ECONNREFUSED') })],
    ['a statement on a runner TypeORM released when its connection broke', new QueryRunnerAlreadyReleasedError()],
    ['every address refused', Object.assign(new AggregateError([withCode('ECONNREFUSED'), withCode('ECONNREFUSED')]), {})],
  ])('recognises %s', (_title, error) => {
    expect(isInfrastructureUnavailable(error)).toBe(true);
  });

  it.each([
    ['a unique violation', withCode('23505')],
    ['a NUL in text', withCode('22P05')],
    ['a plain bug', new TypeError('cannot read properties of undefined')],
    ['not an error', 'ECONNREFUSED'],
    ['nothing', undefined],
  ])('leaves %s to be a 500', (_title, error) => {
    expect(isInfrastructureUnavailable(error)).toBe(false);
  });

  it('stops at a bounded depth on a cyclic cause', () => {
    const a: { cause?: unknown } = {};
    a.cause = a;
    expect(isInfrastructureUnavailable(a)).toBe(false);
  });
});

import type { NextFunction, Request, Response } from 'express';
import { middlewareChain } from './middleware-chain';

type Step = (req: Request, res: Response, next: NextFunction) => void;

const req = {} as Request;
const res = {} as Response;

/** Runs the chain once; what reached the final `next`, and how often. */
function run(steps: Step[]): { calls: unknown[][] } {
  const calls: unknown[][] = [];
  middlewareChain(steps)(req, res, (...args: unknown[]) => void calls.push(args));
  return { calls };
}

describe('middlewareChain', () => {
  it('runs every middleware in order, then hands on to what follows once', () => {
    const seen: string[] = [];
    const { calls } = run(['a', 'b', 'c'].map((name) => (_q: Request, _s: Response, next: NextFunction) => (seen.push(name), next())));
    expect(seen).toEqual(['a', 'b', 'c']);
    expect(calls).toEqual([[]]);
  });

  it('hands on at once when it holds none', () => {
    expect(run([]).calls).toEqual([[]]);
  });

  it('waits for a middleware that goes on later (a body read)', async () => {
    const seen: string[] = [];
    const calls: unknown[][] = [];
    let resume: () => void = () => undefined;
    const done = new Promise<void>((ok) => (resume = ok));
    middlewareChain([(_q, _s, next) => void setImmediate(() => (seen.push('read'), next())), (_q, _s, next) => (seen.push('after'), next())])(req, res, (...args: unknown[]) => {
      calls.push(args);
      resume();
    });
    expect(seen).toEqual([]);
    await done;
    expect(seen).toEqual(['read', 'after']);
    expect(calls).toEqual([[]]);
  });

  it('skips the rest and passes on an error given to next', () => {
    const problem = new Error('refused');
    const later = jest.fn();
    const { calls } = run([(_q, _s, next) => next(problem), later]);
    expect(later).not.toHaveBeenCalled();
    expect(calls).toEqual([[problem]]);
  });

  it('skips the rest and passes on an error thrown synchronously', () => {
    const problem = new Error('thrown');
    const later = jest.fn();
    const { calls } = run([
      () => {
        throw problem;
      },
      later,
    ]);
    expect(later).not.toHaveBeenCalled();
    expect(calls).toEqual([[problem]]);
  });

  it('stops where a middleware answers without going on (a refusal it sends itself)', () => {
    const later = jest.fn();
    const { calls } = run([() => undefined, later]);
    expect(later).not.toHaveBeenCalled();
    expect(calls).toEqual([]);
  });
});

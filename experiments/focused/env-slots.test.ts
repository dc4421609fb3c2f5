/**
 * A process's environments: the last one used stays open for the next job on it, and is closed
 * before another is made (not after that one's first job), so a process never holds two seeds'
 * webs while building the second.
 */
import { connect } from 'node:net';
import { describe, expect, it } from 'vitest';
import { scaledWeb } from '../../test/helpers.ts';
import { loadExperiment } from './config.ts';
import { closeSeedState, withEnv } from './env-slots.ts';

const cfg = { ...loadExperiment('focused', { quick: true }), web: scaledWeb('data/webs/small.json', 0.25) };

/** Whether a server listens on the loopback port. */
const listening = (port: number): Promise<boolean> =>
  new Promise((done) => {
    const s = connect(port, '127.0.0.1');
    s.once('connect', () => {
      s.destroy();
      done(true);
    });
    s.once('error', () => done(false));
  });

describe('environments of a process', () => {
  it('keeps the last one for its next job and closes it before making another', async () => {
    const first = await withEnv(cfg, 1, async (env) => env.port);
    const again = await withEnv(cfg, 1, async (env, made) => ({ port: env.port, made }));
    expect(again).toEqual({ port: first, made: null }); // the same web, not made again
    const during = await withEnv(cfg, 2, async (env, made) => ({
      firstOpen: await listening(first),
      own: await listening(env.port),
      made: made?.phase,
    }));
    expect(during).toEqual({ firstOpen: false, own: true, made: 'environment' });
    await closeSeedState();
  });
});

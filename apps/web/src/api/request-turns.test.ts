import { describe, expect, it } from 'vitest';
import { createRequestTurns } from './request-turns';

/** The task a callback runs in, as the order of macrotasks: a setTimeout(0) posted now runs after the turns already posted. */
describe('request turns', () => {
  it('starts the first request of a task at once and each other one in a task of its own, in order', async () => {
    const turns = createRequestTurns();
    const started: string[] = [];
    const start = async (name: string) => {
      await turns.take();
      started.push(name);
      // A microtask of the same task: it runs before any other turn.
      await Promise.resolve();
      started.push(`${name} (same task)`);
    };
    const all = Promise.all([start('a'), start('b'), start('c')]);
    expect(turns.take()).toBeInstanceOf(Promise);
    await Promise.resolve();
    expect(started).toEqual(['a']);
    await all;
    expect(started).toEqual(['a', 'a (same task)', 'b', 'b (same task)', 'c', 'c (same task)']);
  });

  it('gives the next task its first request at once again', async () => {
    const turns = createRequestTurns();
    expect(turns.take()).toBeUndefined();
    // The turn is handed back once a task passes with nobody waiting.
    await new Promise((resolve) => setTimeout(resolve, 5));
    expect(turns.take()).toBeUndefined();
  });
});

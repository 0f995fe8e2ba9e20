import { createClient } from 'redis';

/**
 * Why this file exists: @socket.io/redis-streams-adapter 0.2 detects a `redis`
 * client and then calls `commandOptions({ isolated: true })`, which `redis` 5
 * removed. The call throws inside its poll loop, which retries at once through
 * promise callbacks only, so the event loop never gets a turn and the process
 * hangs. The adapter's other code path (written for ioredis) sends plain
 * commands, so we hand it an object of that shape, backed by two `redis` 5
 * connections: one for the blocking XREAD, one for everything else, so a
 * blocked read never delays a publish.
 */
type Reply = unknown;

interface IoredisShapedMulti {
  get(key: string): IoredisShapedMulti;
  del(key: string): IoredisShapedMulti;
  exec(): Promise<[null, Reply][]>;
}

/** The commands the adapter calls on an ioredis client, with ioredis's reply shapes. */
interface StreamsAdapterClient {
  xread(...args: (string | number)[]): Promise<Reply>;
  xadd(args: (string | number)[]): Promise<Reply>;
  xrange(key: string, start: string, end: string): Promise<Reply>;
  set(key: string, value: string, mode: 'PX', milliseconds: number): Promise<Reply>;
  multi(): IoredisShapedMulti;
}

export interface RedisStreamsConnection {
  client: StreamsAdapterClient;
  /**
   * Resolves once every XADD sent so far has been answered: the adapter publishes an
   * event with one XADD, issued in the emit call, and the commands go out at the end
   * of the tick (after an HTTP answer written in the same tick). One connection answers
   * its commands in order, so waiting for the last XADD is waiting for all of them, and
   * every caller until the next XADD shares that wait. While Redis is not connected the
   * events wait in the client's queue and this does not wait for them (taking messages
   * goes on during an outage); nor longer than FLUSH_LIMIT_MS.
   */
  flushed(): Promise<void>;
  close(): Promise<void>;
}

/** The longest an acknowledgement waits for its events to reach Redis. */
const FLUSH_LIMIT_MS = 2_000;

const asStrings = (args: (string | number)[]) => args.map(String);

export async function connectRedisStreams(
  url: string,
  onError: (error: unknown) => void,
): Promise<RedisStreamsConnection> {
  const commands = createClient({ url });
  const reader = commands.duplicate();
  commands.on('error', onError);
  reader.on('error', onError);
  await Promise.all([commands.connect(), reader.connect()]);

  // The adapter reads from '$' until its first message arrives; an entry added
  // between two of those blocking reads would be skipped. Reading from the id
  // that was last when we connected instead loses nothing.
  const startIds = new Map<string, string>();
  async function startId(stream: string): Promise<string> {
    let id = startIds.get(stream);
    if (!id) {
      const last = await commands.sendCommand<[string, unknown][] | null>(['XREVRANGE', stream, '+', '-', 'COUNT', '1']);
      id = last?.[0]?.[0] ?? '0-0';
      startIds.set(stream, id);
    }
    return id;
  }

  async function xread(args: string[]): Promise<Reply> {
    const offsetAt = args.length - 1;
    if (args[offsetAt] === '$' && args[offsetAt - 2]?.toUpperCase() === 'STREAMS') {
      args[offsetAt] = await startId(args[offsetAt - 1]!);
    }
    return reader.sendCommand(['XREAD', ...args]);
  }

  // sendCommand returns RESP2 arrays as-is, which is exactly the ioredis reply
  // shape the adapter maps (e.g. XREAD -> [[stream, [[id, [field, value, ...]]]]]).
  /** The last XADD while it waits for its answer, and the shared wait for it. */
  let lastPublish: Promise<Reply> | null = null;
  let lastFlush: { of: Promise<Reply>; done: Promise<void> } | null = null;
  function xadd(args: string[]): Promise<Reply> {
    const sent = commands.sendCommand(['XADD', ...args]);
    lastPublish = sent;
    const answered = () => {
      if (lastPublish === sent) lastPublish = null;
    };
    sent.then(answered, answered);
    return sent;
  }

  const client: StreamsAdapterClient = {
    xread: (...args) => xread(asStrings(args)),
    xadd: (args) => xadd(asStrings(args)),
    xrange: (key, start, end) => commands.sendCommand(['XRANGE', key, start, end]),
    set: (key, value, mode, milliseconds) => commands.sendCommand(['SET', key, value, mode, String(milliseconds)]),
    multi() {
      // Only used for GETDEL of a recovery session: get then delete, atomically.
      const queued: string[][] = [];
      const multi: IoredisShapedMulti = {
        get(key) {
          queued.push(['GET', key]);
          return multi;
        },
        del(key) {
          queued.push(['DEL', key]);
          return multi;
        },
        async exec() {
          const transaction = commands.multi();
          for (const command of queued) transaction.addCommand(command);
          const replies = await transaction.exec();
          return replies.map((reply): [null, Reply] => [null, reply]);
        },
      };
      return multi;
    },
  };

  return {
    client,
    flushed() {
      const last = lastPublish;
      if (!last || !commands.isReady) return Promise.resolve();
      if (lastFlush?.of !== last) {
        let timer: NodeJS.Timeout | undefined;
        const limit = new Promise<void>((resolve) => {
          timer = setTimeout(resolve, FLUSH_LIMIT_MS);
          timer.unref();
        });
        const answer = last.then(
          () => undefined,
          () => undefined,
        );
        lastFlush = { of: last, done: Promise.race([answer, limit]).then(() => clearTimeout(timer)) };
      }
      return lastFlush.done;
    },
    async close() {
      // The reader may sit in a blocking XREAD: drop it rather than wait.
      reader.destroy();
      await commands.close();
    },
  };
}

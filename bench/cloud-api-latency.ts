/**
 * The Cloud API latency figure (issue 31, `--only cloud-api-latency`): Meta posts a
 * signed webhook carrying one customer's text, at a steady rate; measured is the time
 * from the post to the message's `appMessage` event on agents' open sockets. The webhook
 * is answered once its change is stored as a job; the figure therefore covers the job's
 * wake-up, the ingest and the fan-out (through Redis when the sockets are on other nodes).
 */
import { customerTextValue, metaSignature, webhookEnvelope } from '../apps/server/src/test/fake-graph-api.js';
import { deliveryFigure, sendAtRate, startFanoutClients, wallClock } from './fanout.js';

export interface CloudApiTarget {
  phoneNumberId: string;
  wabaId: string;
  appSecret: string;
}

export interface CloudApiLatencyOptions {
  /** The node Meta posts to. */
  webhookUrl: string;
  /** The nodes agents' sockets connect to, the tokens shared out between them in turn. */
  socketUrls: string[];
  tokens: string[];
  event: string;
  target: CloudApiTarget;
  /** Webhooks per second, over `seconds`, after `warmup` seconds that open the conversations. */
  rate: number;
  seconds: number;
  warmup: number;
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

export async function cloudApiLatency(options: CloudApiLatencyOptions) {
  const { socketUrls, target } = options;
  const clients = await Promise.all(
    socketUrls.map((url, k) => startFanoutClients({ url, tokens: options.tokens.filter((_, i) => i % socketUrls.length === k), procs: 1, event: options.event })),
  );
  const run = Date.now().toString(36);
  let sequence = 0;
  const send = (seconds: number, conversations: number) =>
    sendAtRate({
      url: `${options.webhookUrl}/cloud-api/webhook`,
      rate: options.rate,
      seconds,
      body: (i) => {
        sequence += 1;
        const from = `55119${String(70_000_000 + (i % conversations))}`;
        return webhookEnvelope(target, [customerTextValue(from, `wamid.BENCH-${run}-${sequence}`, `mensagem ${sequence} t=${wallClock()}`)]);
      },
      headers: (raw) => ({ 'x-hub-signature-256': metaSignature(raw, target.appSecret) }),
    });
  const takeAll = async () => (await Promise.all(clients.map((set) => set.take()))).flat();
  try {
    // The warm-up opens the conversations (a pending ticket each); the measure writes into them.
    const conversations = Math.max(1, Math.floor(options.rate * options.warmup));
    await send(options.warmup, conversations);
    await sleep(1000);
    await takeAll();
    const sends = await send(options.seconds, conversations);
    // Events still on their way when the last webhook was answered.
    await sleep(1000);
    const delays = await takeAll();
    return deliveryFigure(sends, delays, options.seconds, options.tokens.length);
  } finally {
    await Promise.all(clients.map((set) => set.stop()));
  }
}

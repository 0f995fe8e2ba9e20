import type { ProviderKind } from '../modules/connections/channel-provider.js';

/**
 * How one connection spaces its sends (campaign settings, spec part 2 §9, and
 * the per-connection cap). All in seconds except the cap.
 */
export interface PacingSettings {
  /** Each gap between two campaign sends is a random wait of 0..messageInterval s. */
  messageInterval: number;
  /** After every this many campaign sends the gap is greaterInterval instead (0 = never). */
  longerIntervalAfter: number;
  /** The long pause, in seconds (0 = off). */
  greaterInterval: number;
  /** At most this many messages per second on one connection, whatever is sent (0 = no cap). */
  maxPerSecond: number;
}

/** What the pacing gate of a connection remembers (table outbound_pacing). */
export interface PacingGate {
  /** The connection sends nothing before this time. */
  nextAt: Date;
  /** Campaign sends since the last long pause. */
  sentCount: number;
}

/** The default cap: a Baileys number sends at most one message a second; the others are not capped. */
export const DEFAULT_MAX_PER_SECOND: Record<ProviderKind, number> = { baileys: 1, 'cloud-api': 0, sandbox: 0 };

/** Whether a connection with these settings sends one message at a time (any wait is configured). */
export function isPaced(settings: PacingSettings): boolean {
  return settings.messageInterval > 0 || (settings.longerIntervalAfter > 0 && settings.greaterInterval > 0) || settings.maxPerSecond > 0;
}

/**
 * The gate after a send at `sentAt`. A campaign send counts towards the long
 * pause: the Nth send (N = longerIntervalAfter) is followed by greaterInterval,
 * every other by random() × messageInterval. Any send (schedules too) is
 * followed by at least 1/maxPerSecond s. `random` returns [0, 1).
 */
export function nextGate(settings: PacingSettings, gate: PacingGate, sentAt: Date, campaign: boolean, random: () => number): PacingGate {
  const capMs = settings.maxPerSecond > 0 ? 1000 / settings.maxPerSecond : 0;
  if (!campaign) return { nextAt: new Date(Math.max(gate.nextAt.getTime(), sentAt.getTime() + capMs)), sentCount: gate.sentCount };
  const count = gate.sentCount + 1;
  const longPause = settings.longerIntervalAfter > 0 && settings.greaterInterval > 0 && count >= settings.longerIntervalAfter;
  const gapMs = longPause ? settings.greaterInterval * 1000 : random() * settings.messageInterval * 1000;
  return { nextAt: new Date(sentAt.getTime() + Math.max(gapMs, capMs)), sentCount: longPause ? 0 : count };
}

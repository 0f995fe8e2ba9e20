/** The time every rule reads (business hours, timers, pacing, variables); tests set it. */
export interface Clock {
  now(): Date;
}

export const systemClock: Clock = { now: () => new Date() };

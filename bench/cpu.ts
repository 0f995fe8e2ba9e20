import { readdirSync, readFileSync } from 'node:fs';
import { cpus } from 'node:os';

/** Busy CPU time of the whole machine and of given processes, in clock ticks (Linux /proc). */
function machineBusyTicks(): number {
  const line = readFileSync('/proc/stat', 'utf8').split('\n')[0] ?? '';
  const [, ...values] = line.trim().split(/\s+/).map(Number);
  const idle = (values[3] ?? 0) + (values[4] ?? 0);
  return values.reduce((sum, v) => sum + (v || 0), 0) - idle;
}

function processTicks(pid: number): number {
  try {
    const fields = readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1]?.split(' ') ?? [];
    // utime, stime, cutime, cstime: fields 14–17 of stat, 12–15 after the command name.
    return [11, 12, 13, 14].reduce((sum, i) => sum + Number(fields[i] ?? 0), 0);
  } catch {
    return 0;
  }
}

/** The database and Redis serve our load: their processes count as ours. */
function servicePids(): number[] {
  return readdirSync('/proc')
    .filter((name) => /^\d+$/.test(name))
    .filter((pid) => {
      try {
        return /^(postgres|redis-server)/.test(readFileSync(`/proc/${pid}/comm`, 'utf8'));
      } catch {
        return false;
      }
    })
    .map(Number);
}

/**
 * Measures how much CPU processes other than ours used during a run: these
 * machines are shared, and a disturbed run is flagged rather than hidden.
 */
export function startCpuWatch(ourPids: number[]) {
  const atStart = new Map([...ourPids, ...servicePids()].map((pid) => [pid, processTicks(pid)]));
  const machine = machineBusyTicks();
  const started = performance.now();
  return () => {
    const seconds = (performance.now() - started) / 1000;
    const ticksPerSecond = 100;
    // Database backends opened during the run are ours too: they started at zero.
    const pids = new Set([...atStart.keys(), ...servicePids()]);
    const ownTicks = [...pids].reduce((sum, pid) => sum + processTicks(pid) - (atStart.get(pid) ?? 0), 0);
    const otherTicks = machineBusyTicks() - machine - ownTicks;
    const otherPercent = Math.max(0, (otherTicks / ticksPerSecond / seconds / cpus().length) * 100);
    return { otherCpuPercent: Math.round(otherPercent * 10) / 10, disturbed: otherPercent > 15 };
  };
}

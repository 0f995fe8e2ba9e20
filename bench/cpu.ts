import { readdirSync, readFileSync } from 'node:fs';
import { cpus } from 'node:os';

/** The machine's CPU time so far, in clock ticks (Linux /proc/stat): busy, and stolen by the hypervisor. */
function machineTicks(): { busy: number; steal: number } {
  const line = readFileSync('/proc/stat', 'utf8').split('\n')[0] ?? '';
  const [, ...values] = line.trim().split(/\s+/).map(Number);
  // user, nice, system, idle, iowait, irq, softirq, steal, guest (already in user), guest_nice.
  const busy = [0, 1, 2, 5, 6].reduce((sum, i) => sum + (values[i] ?? 0), 0);
  return { busy, steal: values[7] ?? 0 };
}

/**
 * How fast one core of the machine is right now, on work like a server's: JSON
 * round trips of a list page (20 tickets with their contacts), per millisecond,
 * over half a second. These shared machines change speed from one hour to the next
 * without reporting stolen time (the same build's figures moved by up to 35%), so
 * each figure carries the speed measured just before it.
 */
export function cpuSpeed(): number {
  const page = Array.from({ length: 20 }, (_, i) => ({
    id: i,
    uuid: `00000000-0000-4000-8000-${String(i).padStart(12, '0')}`,
    status: 'open',
    lastMessage: 'Bom dia, o pedido da geladeira chegou com a porta amassada',
    updatedAt: new Date(1_795_000_000_000 + i).toISOString(),
    contact: { id: i, name: `Contato ${i}`, number: `55119${String(i).padStart(8, '0')}` },
    tags: [{ id: i, name: 'vip' }],
  }));
  const started = performance.now();
  let trips = 0;
  while (performance.now() - started < 500) {
    for (let i = 0; i < 50; i++) JSON.parse(JSON.stringify(page));
    trips += 50;
  }
  return Math.round(trips / (performance.now() - started));
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
  const machine = machineTicks();
  const started = performance.now();
  return () => {
    const seconds = (performance.now() - started) / 1000;
    const ticksPerSecond = 100;
    // Database backends opened during the run are ours too: they started at zero.
    const pids = new Set([...atStart.keys(), ...servicePids()]);
    const ownTicks = [...pids].reduce((sum, pid) => sum + processTicks(pid) - (atStart.get(pid) ?? 0), 0);
    const now = machineTicks();
    const percentOfMachine = (ticks: number) => Math.max(0, (ticks / ticksPerSecond / seconds / cpus().length) * 100);
    const otherPercent = percentOfMachine(now.busy - machine.busy - ownTicks);
    const stealPercent = percentOfMachine(now.steal - machine.steal);
    return {
      otherCpuPercent: Math.round(otherPercent * 10) / 10,
      stealPercent: Math.round(stealPercent * 10) / 10,
      disturbed: otherPercent > 15 || stealPercent > 15,
    };
  };
}

import { execFileSync } from "node:child_process";
import { readdirSync, readFileSync } from "node:fs";

/**
 * CPU time of processes, read from /proc (Linux): what a measure cost the
 * server and PostgreSQL apart from the load generator, counted by the
 * kernel rather than guessed from req/s on a shared machine.
 */

const TICKS_PER_SECOND = (() => {
  try {
    return Number(execFileSync("getconf", ["CLK_TCK"], { encoding: "utf8" }).trim()) || 100;
  } catch {
    return 100;
  }
})();

/** User + system seconds of one process, all its threads (PGlite's worker included); 0 once gone. */
function cpuOf(pid: number): number {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, "utf8");
    // The command name may hold spaces and parentheses: the fields start after the last ")".
    const fields = stat.slice(stat.lastIndexOf(")") + 2).split(" ");
    return (Number(fields[11]) + Number(fields[12])) / TICKS_PER_SECOND;
  } catch {
    return 0;
  }
}

/** The process and its descendants (the cluster's workers when WEB_CONCURRENCY > 1). */
function treeOf(pid: number): number[] {
  const pids = [pid];
  for (let i = 0; i < pids.length; i++) {
    const parent = pids[i] as number;
    let tasks: string[] = [];
    try {
      tasks = readdirSync(`/proc/${parent}/task`);
    } catch {
      continue;
    }
    for (const task of tasks) {
      try {
        const children = readFileSync(`/proc/${parent}/task/${task}/children`, "utf8").trim();
        if (children) pids.push(...children.split(" ").map(Number));
      } catch {
        // the thread ended
      }
    }
  }
  return pids;
}

/**
 * PostgreSQL backends serving `database`, by their process title
 * (`postgres: [cluster: ]user database host(port) state`): other databases' backends,
 * such as other test runs on the same server, are not counted.
 */
function backendsOf(database: string): number[] {
  const pids: number[] = [];
  for (const entry of readdirSync("/proc")) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      const title = readFileSync(`/proc/${entry}/cmdline`, "utf8");
      // "postgres: 15/main: user database host(port) state" with a cluster name, else without it.
      const words = title.replace(/^postgres: (\S+: )?/, "").split(" ");
      if (title.startsWith("postgres: ") && words[1] === database) pids.push(Number(entry));
    } catch {
      // the process ended
    }
  }
  return pids;
}

export type CpuSample = { server: Map<number, number>; postgres: Map<number, number> };

/** CPU seconds so far of the server's process tree and of `database`'s backends (null: PGlite). */
export function sampleCpu(serverPid: number, database: string | null): CpuSample {
  const read = (pids: number[]) => new Map(pids.map((pid) => [pid, cpuOf(pid)]));
  return { server: read(treeOf(serverPid)), postgres: read(database ? backendsOf(database) : []) };
}

/**
 * CPU seconds spent between two samples. A process first seen in the second
 * sample counts from zero (a backend opened during the measure); one that
 * ended before it is lost, so take the second sample before the server stops.
 */
export function cpuBetween(before: CpuSample, after: CpuSample) {
  const spent = (a: Map<number, number>, b: Map<number, number>) => {
    let total = 0;
    for (const [pid, seconds] of b) total += Math.max(0, seconds - (a.get(pid) ?? 0));
    return total;
  };
  return {
    server: spent(before.server, after.server),
    postgres: spent(before.postgres, after.postgres),
  };
}

/**
 * A scripted /proc world around one app-server leader, with the owned group, the marker sweep
 * and the teardown deps over it; listings and environment reads are counted, so tests can say
 * how many passes a teardown took.
 */
import { MarkedProcesses, OWNER_ENV_VAR } from '../../src/transport/owner-marker.js';
import { OwnedGroup } from '../../src/transport/process-group.js';
import type { TeardownDeps } from '../../src/transport/teardown.js';
import { ScriptedWorld, virtualClock } from './scripted-probe.js';

export const LEADER = 100;
export const OWNER = 'owner-1';
export const MARK = [`${OWNER_ENV_VAR}=${OWNER}`];
/** The test process's own pid, as the marker sweep is told it. */
export const SELF = 5;

export function ownedWorld(build: (w: ScriptedWorld) => void) {
  const world = new ScriptedWorld();
  world.add(LEADER, { pgid: LEADER, starttime: 1000, env: MARK });
  build(world);
  const calls = { listings: 0, environs: [] as number[] };
  const listPids = world.listPids.bind(world);
  const markerOf = world.markerOf.bind(world);
  world.listPids = () => {
    calls.listings += 1;
    return listPids();
  };
  world.markerOf = (pid, entry) => {
    calls.environs.push(pid);
    return markerOf(pid, entry);
  };
  const group = new OwnedGroup(world, LEADER);
  const marked = new MarkedProcesses(world, OWNER, SELF, group.leaderStart);
  const deps: TeardownDeps = {
    probe: world,
    group,
    marked,
    useProcessGroup: true,
    closeGraceMs: 2000,
    killGraceMs: 2000,
    clock: virtualClock(),
  };
  return { world, calls, group, marked, deps };
}

/** Marked 201 is listed, then forks marked 202 (not in that listing) and exits before its stat is read. */
export function vanishMidPass(world: ScriptedWorld): void {
  const statOf = world.statOf.bind(world);
  let raced = false;
  world.statOf = (pid) => {
    if (pid === 201 && !raced) {
      raced = true;
      world.procs.get(201)!.alive = false;
      world.add(202, { pgid: 202, starttime: 1150, ppid: 1, env: MARK });
    }
    return statOf(pid);
  };
}

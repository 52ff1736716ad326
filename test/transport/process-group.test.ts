import { describe, expect, it } from 'vitest';
import { OwnedGroup } from '../../src/transport/process-group.js';
import { parseProcStat } from '../../src/transport/proc-probe.js';
import { teardown, type TeardownDeps } from '../../src/transport/teardown.js';
import { CodexTransportError } from '../../src/transport/types.js';
import { ScriptedWorld, scriptedLeader, virtualClock } from '../support/scripted-probe.js';

const LEADER = 100;

function setup(build: (w: ScriptedWorld) => void = () => undefined) {
  const world = new ScriptedWorld();
  world.add(LEADER, { pgid: LEADER, starttime: 1000 });
  build(world);
  const group = new OwnedGroup(world, LEADER);
  const clock = virtualClock();
  const deps: TeardownDeps = {
    probe: world,
    group,
    useProcessGroup: true,
    closeGraceMs: 2000,
    killGraceMs: 2000,
    clock,
  };
  return { world, group, deps, clock };
}

/** Simulate the leader exiting on its own, with the synchronous reap-time scan. */
function leaderExits(world: ScriptedWorld, group: OwnedGroup): void {
  world.procs.get(LEADER)!.alive = false;
  group.scan('leader_exiting');
}

async function failure(p: Promise<void>): Promise<CodexTransportError> {
  const err: unknown = await p.then(
    () => undefined,
    (e: unknown) => e,
  );
  if (!(err instanceof CodexTransportError))
    throw new Error('expected a CodexTransportError rejection');
  return err;
}

describe('parseProcStat', () => {
  it('reads fields after the last ")" even when the command name contains ") " and spaces', () => {
    const rest = 'S 1 4242 31 0 -1 4194560 0 0 0 0 0 0 0 0 20 0 1 0 987654 1000 10';
    expect(parseProcStat(`77 (evil) S 1 2 3 (x) ) ${rest}\n`)).toEqual({
      kind: 'stat',
      pgid: 4242,
      starttime: 987654,
      ppid: 1,
    });
    expect(parseProcStat(`77 (a b) ${rest}`)).toEqual({
      kind: 'stat',
      pgid: 4242,
      starttime: 987654,
      ppid: 1,
    });
  });

  it('treats zombies as gone, keeping their start time, and garbage as unknown', () => {
    const rest = '1 4242 31 0 -1 4194560 0 0 0 0 0 0 0 0 20 0 1 0 987654 1000 10';
    expect(parseProcStat(`77 (z) Z ${rest}`)).toEqual({ kind: 'gone', starttime: 987654 });
    expect(parseProcStat('no paren here')).toEqual({ kind: 'unknown', reason: 'unparsable' });
    expect(parseProcStat('77 (short) S 1 2')).toEqual({ kind: 'unknown', reason: 'unparsable' });
  });
});

describe('teardown with a scripted probe', () => {
  it('closes stdin first and sends no signal when the leader exits on EOF', async () => {
    const { world, deps } = setup();
    await teardown(scriptedLeader(world, LEADER), deps);
    expect(world.kills).toEqual([]);
  });

  it('escalates SIGTERM → SIGKILL on the group while the leader lives, then child_did_not_exit', async () => {
    const { world, deps } = setup((w) => {
      w.procs.get(LEADER)!.ignoresTerm = true;
      w.procs.get(LEADER)!.ignoresKill = true;
    });
    const err = await failure(teardown(scriptedLeader(world, LEADER, { ignoresEof: true }), deps));
    expect(err.code).toBe('child_did_not_exit');
    expect(world.kills).toEqual([
      { target: -LEADER, signal: 'SIGTERM' },
      { target: -LEADER, signal: 'SIGKILL' },
    ]);
  });

  it('never signals the group id once the leader has gone; members are signalled by PID', async () => {
    const { world, group, deps } = setup((w) => {
      w.add(201, { pgid: LEADER, starttime: 1001 });
    });
    leaderExits(world, group);
    await teardown(scriptedLeader(world, LEADER), deps);
    expect(world.kills).toEqual([{ target: 201, signal: 'SIGTERM' }]);
    expect(world.kills.some((k) => k.target < 0)).toBe(false);
  });

  it('an unreadable listing fails with group_cleanup_unverified; a later attempt succeeds', async () => {
    const { world, group, deps } = setup((w) => {
      w.add(201, { pgid: LEADER, starttime: 1001 });
    });
    leaderExits(world, group);
    world.listingUnreadable = true;
    const leader = scriptedLeader(world, LEADER);
    const err = await failure(teardown(leader, deps));
    expect(err.code).toBe('group_cleanup_unverified');
    expect(err.detail).toEqual({ doubt: 'post_exit_probe_unreadable' });
    // the recorded member was still removed; the doubt persists until a complete scan
    expect(world.procs.get(201)!.alive).toBe(false);
    expect(group.doubt).toBe('post_exit_probe_unreadable');
    world.listingUnreadable = false;
    await teardown(leader, deps);
    expect(group.doubt).toBeUndefined();
  });

  it('never signals a foreign process, even one that reports our group', async () => {
    const { world, group, deps } = setup((w) => {
      w.add(300, { pgid: LEADER, starttime: 1001, evidence: 'foreign' });
    });
    group.scan('leader_alive');
    await teardown(scriptedLeader(world, LEADER), deps);
    expect(world.signalled(300)).toEqual([]);
    expect(group.members.has(300)).toBe(false);
  });

  it('a reused PID (start time mismatch) is dropped without a signal', async () => {
    const { world, group, deps } = setup((w) => {
      w.add(201, { pgid: LEADER, starttime: 1001 });
    });
    group.scan('leader_alive');
    expect(group.members.get(201)).toBe(1001);
    // 201 exits and its number is reused by an unrelated process in another group
    world.add(201, { pgid: 555, starttime: 5000 });
    await teardown(scriptedLeader(world, LEADER), deps);
    expect(world.signalled(201)).toEqual([]);
    expect(world.procs.get(201)!.alive).toBe(true);
  });

  it('a reused PID that lands in the same group id after the leader is gone is not adopted or signalled', async () => {
    const { world, group, deps } = setup((w) => {
      w.add(201, { pgid: LEADER, starttime: 1001 });
    });
    leaderExits(world, group);
    expect(group.members.get(201)).toBe(1001);
    world.add(201, { pgid: LEADER, starttime: 5000 });
    const err = await failure(teardown(scriptedLeader(world, LEADER), deps));
    expect(err.code).toBe('group_cleanup_unverified');
    expect(err.detail).toEqual({ doubt: 'post_exit_probe_unattributable' });
    expect(world.signalled(201)).toEqual([]);
  });

  it('a member that survives SIGKILL fails with process_group_did_not_exit after both drains', async () => {
    const { world, group, deps, clock } = setup((w) => {
      w.add(201, { pgid: LEADER, starttime: 1001, ignoresTerm: true, ignoresKill: true });
    });
    leaderExits(world, group);
    const err = await failure(teardown(scriptedLeader(world, LEADER), deps));
    expect(err.code).toBe('process_group_did_not_exit');
    expect(err.detail).toEqual({ survivors: 1 });
    expect(world.signalled(201)).toEqual(['SIGTERM', 'SIGKILL']);
    // each drain stage is bounded by killGraceMs, polled every 25 ms
    expect(clock.elapsed()).toBeGreaterThanOrEqual(4000);
    expect(clock.elapsed()).toBeLessThan(4100);
  });

  it('a member whose identity cannot be read is never signalled and leaves the teardown unverified', async () => {
    const { world, group, deps } = setup((w) => {
      w.add(201, { pgid: LEADER, starttime: 1001 });
    });
    leaderExits(world, group);
    world.procs.get(201)!.evidence = 'unknown';
    const err = await failure(teardown(scriptedLeader(world, LEADER), deps));
    expect(err.code).toBe('group_cleanup_unverified');
    expect(world.signalled(201)).toEqual([]);
  });

  it('the reap-time scan excludes processes older than the leader', () => {
    const { world, group } = setup((w) => {
      w.add(150, { pgid: LEADER, starttime: 900 });
      w.add(201, { pgid: LEADER, starttime: 1001 });
    });
    leaderExits(world, group);
    expect([...group.members.keys()]).toEqual([201]);
    expect(group.doubt).toBe('leader_exiting_unattributable');
  });

  it('a complete reap-time scan does not clear doubt; a complete post-exit probe does', () => {
    const { world, group } = setup();
    world.listingUnreadable = true;
    group.scan('leader_alive');
    expect(group.doubt).toBe('leader_alive_unreadable');
    world.listingUnreadable = false;
    leaderExits(world, group);
    expect(group.doubt).toBe('leader_alive_unreadable');
    group.scan('post_exit_probe');
    expect(group.doubt).toBeUndefined();
  });

  it('adopts a fork made during the drain only while a recorded member is alive', async () => {
    const { world, group, deps } = setup((w) => {
      w.add(201, { pgid: LEADER, starttime: 1001, ignoresTerm: true });
    });
    leaderExits(world, group);
    // 201 forks 202 once it has been asked to terminate
    const kill = world.kill.bind(world);
    world.kill = (target, signal) => {
      kill(target, signal);
      if (target === 201 && signal === 'SIGTERM')
        world.add(202, { pgid: LEADER, starttime: 1002, ignoresTerm: true });
    };
    await teardown(scriptedLeader(world, LEADER), deps);
    expect(world.signalled(202)).toEqual(['SIGTERM', 'SIGKILL']);
    expect(world.procs.get(202)!.alive).toBe(false);
    // with no living anchor the same discovery is unattributable
    const lone = setup();
    leaderExits(lone.world, lone.group);
    lone.world.add(203, { pgid: LEADER, starttime: 1003 });
    expect(lone.group.scan('group_continuous').adopted).toEqual([]);
    expect(lone.group.doubt).toBe('group_continuous_unattributable');
  });

  it('without attribution: group signals while the leader lives, no sweep', async () => {
    const world = new ScriptedWorld();
    world.add(LEADER, { pgid: LEADER, starttime: 1000, ignoresTerm: true });
    world.add(201, { pgid: LEADER, starttime: 1001, ignoresTerm: true });
    world.attributable = false;
    const deps: TeardownDeps = {
      probe: world,
      group: undefined,
      useProcessGroup: true,
      closeGraceMs: 10,
      killGraceMs: 10,
      clock: virtualClock(),
    };
    await teardown(scriptedLeader(world, LEADER, { ignoresEof: true }), deps);
    expect(world.kills).toEqual([
      { target: -LEADER, signal: 'SIGTERM' },
      { target: -LEADER, signal: 'SIGKILL' },
    ]);
  });
});

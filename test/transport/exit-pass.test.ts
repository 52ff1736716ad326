/**
 * The pass at the leader's reap instant (ADR-0004, amended): shared by the group and the marker
 * sweep, and the whole proof when it finds nothing owned — an idle dispose then reads /proc
 * once. A process that started before the app-server is never signalled, whatever group id or
 * environment it shows.
 */
import { describe, expect, it } from 'vitest';
import { passAtExit, teardown } from '../../src/transport/teardown.js';
import { LEADER, MARK, ownedWorld, vanishMidPass } from '../support/owned-world.js';
import { scriptedLeader, type ScriptedWorld } from '../support/scripted-probe.js';

/** An owned world with 30 older strangers, and a leader whose exit runs the reap-instant pass. */
function exiting(build: (w: ScriptedWorld) => void) {
  const { world, calls, group, marked, deps } = ownedWorld((w) => {
    for (let pid = 10; pid < 40; pid += 1) w.add(pid, { pgid: pid, starttime: 500 + pid });
    build(w);
  });
  const base = scriptedLeader(world, LEADER);
  let proven = false;
  const leader = {
    ...base,
    scannedAtExit: true,
    // what the stdio transport's exit handler does, synchronously at the reap instant
    endStdin: () => {
      base.endStdin();
      proven = passAtExit(group, marked, world);
    },
    provenEmptyAtExit: () => proven,
  };
  return { world, deps, leader, listings: () => calls.listings };
}

describe('the pass at the reap instant', () => {
  it('an idle dispose with nothing owned reads /proc once and signals nothing', async () => {
    const { world, deps, leader, listings } = exiting(() => undefined);
    await teardown(leader, deps);
    expect(leader.provenEmptyAtExit()).toBe(true);
    expect(listings()).toBe(1);
    expect(world.kills).toEqual([]);
  });

  it('a member alive at the exit is adopted there and swept as before', async () => {
    const { world, deps, leader } = exiting((w) => {
      w.add(201, { pgid: LEADER, starttime: 1001 });
      w.add(202, { pgid: 202, starttime: 1100, ppid: 1, env: MARK }); // a setsid command
    });
    await teardown(leader, deps);
    expect(leader.provenEmptyAtExit()).toBe(false);
    expect(world.signalled(201)).toEqual(['SIGTERM']);
    expect(world.signalled(202)).toEqual(['SIGTERM']);
  });

  it('a process vanishing mid-pass is no proof: teardown takes its own pass', async () => {
    const { world, deps, leader, listings } = exiting((w) => {
      w.add(201, { pgid: 201, starttime: 1100, ppid: 1, env: MARK });
    });
    vanishMidPass(world);
    await teardown(leader, deps);
    expect(leader.provenEmptyAtExit()).toBe(false);
    expect(world.signalled(202)).toEqual(['SIGTERM']);
    expect(listings()).toBeGreaterThanOrEqual(2);
  });

  it('never signals a process that started before the app-server, in its group id or marked', async () => {
    // neither can descend from the app-server: a group id shown by an older process means the
    // id was reused (or read across namespaces), and an older marked process copied the marker
    const { world, deps, leader } = exiting((w) => {
      w.add(61, { pgid: LEADER, starttime: 900 });
      w.add(62, { pgid: 62, starttime: 950, ppid: 1, env: MARK });
    });
    await expect(teardown(leader, deps)).rejects.toMatchObject({
      code: 'group_cleanup_unverified',
    });
    expect(world.signalled(61)).toEqual([]);
    expect(world.signalled(62)).toEqual([]);
    expect(world.kills).toEqual([]);
  });

  it('a zombie older than the app-server does not stop the proof: it can have forked nothing owned', async () => {
    const { world, deps, leader, listings } = exiting((w) => {
      w.add(63, { pgid: 63, starttime: 999, zombie: true });
    });
    await teardown(leader, deps);
    expect(leader.provenEmptyAtExit()).toBe(true);
    expect(listings()).toBe(1);
    expect(world.kills).toEqual([]);
  });

  it("a zombie from the app-server's own tick or later is no proof: teardown takes its own pass", async () => {
    for (const starttime of [1000, 1001]) {
      const { deps, leader, listings } = exiting((w) => {
        w.add(64, { pgid: 64, starttime, ppid: 1, zombie: true });
      });
      await teardown(leader, deps);
      expect(leader.provenEmptyAtExit()).toBe(false);
      expect(listings()).toBeGreaterThanOrEqual(2);
    }
  });

  it('an older marked process alone does not stop the proof, and is not signalled', async () => {
    const { world, deps, leader, listings } = exiting((w) => {
      w.add(62, { pgid: 62, starttime: 950, ppid: 1, env: MARK });
    });
    await teardown(leader, deps);
    expect(leader.provenEmptyAtExit()).toBe(true);
    expect(listings()).toBe(1);
    expect(world.kills).toEqual([]);
  });
});

'use strict';
// Stand-in app-server for the chaos cases a real codex cannot be made to show (CommonJS so the
// typed lint config ignores it). CHAOS_PEER picks the misbehaviour:
//   stdout_closed       answers turn/start, then closes its stdout and stays alive
//   holds_pipe          starts a child that inherits stdout, then exits on turn/start
//   sigterm_ignored     ignores SIGTERM and stdin EOF, completes turns normally
//   ack_never_complete  acknowledges turn/start and turn/interrupt, never completes a turn
const { spawn } = require('node:child_process');
const { closeSync } = require('node:fs');
const { createInterface } = require('node:readline');

const mode = process.env.CHAOS_PEER;
const version = process.env.CHAOS_UA_VERSION;
const thread = 'chaos-thread-0001';
let turns = 0;
const out = (frame) => process.stdout.write(`${JSON.stringify(frame)}\n`);
const forever = () => setInterval(() => undefined, 60_000);

if (mode === 'sigterm_ignored') process.on('SIGTERM', () => undefined);

const rl = createInterface({ input: process.stdin });
rl.on('line', (line) => {
  let msg;
  try {
    msg = JSON.parse(line);
  } catch {
    return;
  }
  switch (msg.method) {
    case 'initialize':
      out({
        id: msg.id,
        result: {
          userAgent: `relvo_agent_runtime/${version} (Debian 12.0.0; x86_64) dumb (relvo_agent_runtime; 0.1.0)`,
          codexHome: '/chaos/.codex',
          platformFamily: 'unix',
          platformOs: 'linux',
        },
      });
      break;
    case 'thread/start':
      out({ id: msg.id, result: { thread: { id: thread, ephemeral: true } } });
      break;
    case 'turn/start': {
      const turn = `chaos-turn-${++turns}`;
      out({
        id: msg.id,
        result: {
          turn: { id: turn, items: [], itemsView: 'notLoaded', status: 'inProgress', error: null },
        },
      });
      if (mode === 'stdout_closed') {
        closeSync(1);
        forever();
      } else if (mode === 'holds_pipe') {
        spawn('sleep', ['600'], { stdio: ['ignore', 'inherit', 'ignore'] });
        setTimeout(() => process.exit(0), 50);
      } else if (mode === 'sigterm_ignored') {
        out({
          method: 'item/agentMessage/delta',
          params: { threadId: thread, turnId: turn, itemId: 'm1', delta: 'ok' },
        });
        out({
          method: 'turn/completed',
          params: {
            threadId: thread,
            turn: { id: turn, items: [], itemsView: 'notLoaded', status: 'completed', error: null },
          },
        });
      }
      break;
    }
    case 'turn/interrupt':
      out({ id: msg.id, result: {} });
      break;
    default:
      if (msg.id !== undefined && msg.method !== undefined)
        out({ id: msg.id, error: { code: -32600, message: 'unsupported' } });
  }
});
rl.on('close', () => {
  if (mode === 'sigterm_ignored' || mode === 'stdout_closed') forever();
  else process.exit(0);
});

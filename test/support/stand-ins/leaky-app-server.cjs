'use strict';
// Stand-in app-server (CommonJS so the typed lint config ignores it): answers the handshake and one
// turn over stdio JSONL, and puts a canary secret and path in stderr and in every upstream message.
const { createInterface } = require('node:readline');

const secret = process.env.CANARY_SECRET;
const path = process.env.CANARY_PATH;
const thread = '01a228d9-72fc-76b2-83a3-6e6d181a9480';
const turn = '01a228d9-73a0-7e63-ae3e-294f65be2e2c';
const prose = `failed reading ${path} with key ${secret}`;
const out = (frame) => process.stdout.write(`${JSON.stringify(frame)}\n`);

process.stderr.write(`ERROR codex_core: auth token ${secret} loaded from ${path}\n`);

const rl = createInterface({ input: process.stdin });
rl.on('line', (line) => {
  const msg = JSON.parse(line);
  process.stderr.write(`WARN received ${msg.method} while ${prose}\n`);
  switch (msg.method) {
    case 'initialize':
      out({
        id: msg.id,
        result: {
          userAgent: `relvo_agent_runtime/${process.env.STAND_IN_VERSION} (Linux; x86_64) stand-in`,
          codexHome: path,
        },
      });
      break;
    case 'thread/start':
      out({ id: msg.id, result: { thread: { id: thread, cwd: path } } });
      out({ method: 'configWarning', params: { summary: prose, details: prose } });
      break;
    case 'turn/start':
      out({ id: msg.id, result: { turn: { id: turn, status: 'inProgress', items: [] } } });
      out({ method: 'warning', params: { threadId: thread, message: prose } });
      out({
        method: 'error',
        params: {
          threadId: thread,
          turnId: turn,
          willRetry: false,
          error: { message: prose, codexErrorInfo: 'unauthorized', additionalDetails: prose },
        },
      });
      out({
        id: 7,
        method: 'item/fileChange/requestApproval',
        params: { threadId: thread, turnId: turn, itemId: 'i', reason: prose, grantRoot: path },
      });
      out({
        method: 'turn/completed',
        params: {
          threadId: thread,
          turn: {
            id: turn,
            status: 'failed',
            items: [],
            error: { message: prose, codexErrorInfo: { [prose]: 1 }, additionalDetails: prose },
          },
        },
      });
      break;
    default:
      if (msg.id !== undefined && msg.method !== undefined)
        out({ id: msg.id, error: { code: -32603, message: prose } });
  }
});
rl.on('close', () => process.exit(0));

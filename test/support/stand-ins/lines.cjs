'use strict';
// Stand-in child (CommonJS so the typed lint config ignores it): line protocol over stdio, driven by {"cmd":...} frames from the test.
const { createInterface } = require('node:readline');

const out = (s) => process.stdout.write(s);
const delay = (ms) => new Promise((r) => setTimeout(r, ms));

out(
  `${JSON.stringify({ hello: { pid: process.pid, cwd: process.cwd(), argv: process.argv.slice(2) } })}\n`,
);

const rl = createInterface({ input: process.stdin });
rl.on('line', async (line) => {
  const msg = JSON.parse(line);
  switch (msg.cmd) {
    case 'echo':
      out(`${JSON.stringify({ echo: msg.value })}\n`);
      break;
    case 'split': {
      // one frame written in pieces, splitting inside a multi-byte character and a U+2028
      const bytes = Buffer.from(`${JSON.stringify({ split: 'é\u2028😀 end' })}\n`, 'utf8');
      for (let i = 0; i < bytes.length; i += 3) {
        process.stdout.write(bytes.subarray(i, Math.min(i + 3, bytes.length)));
        await delay(2);
      }
      break;
    }
    case 'noise':
      process.stderr.write('some stderr noise that must never be parsed {"id":99}\n');
      out('not json at all\n{"truncated":\n\n   \r\n');
      out(`${JSON.stringify({ after: 'noise' })}\r\n`);
      break;
    case 'close-stdout':
      process.stdout.end();
      process.stdin.resume(); // stay alive until stdin EOF
      break;
    default:
      break;
  }
});

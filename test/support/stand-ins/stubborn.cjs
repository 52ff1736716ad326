'use strict';
// Stand-in child (CommonJS so the typed lint config ignores it) that ignores stdin EOF and SIGTERM: only SIGKILL ends it.
process.on('SIGTERM', () => {});
process.stdin.resume();
process.stdin.on('end', () => {});
setInterval(() => {}, 1000);
process.stdout.write(`${JSON.stringify({ hello: { pid: process.pid } })}\n`);

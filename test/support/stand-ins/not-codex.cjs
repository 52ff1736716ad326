// Answers the first request line with a result that is not an initialize response.
process.stdin.setEncoding('utf8');
let buf = '';
process.stdin.on('data', (chunk) => {
  buf += chunk;
  const nl = buf.indexOf('\n');
  if (nl < 0) return;
  const frame = JSON.parse(buf.slice(0, nl));
  process.stdout.write(JSON.stringify({ id: frame.id, result: { hello: 'world' } }) + '\n');
});

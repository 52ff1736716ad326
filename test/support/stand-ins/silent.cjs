// Reads stdin and never answers.
process.stdin.resume();
setInterval(() => undefined, 1 << 30);

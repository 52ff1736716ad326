// Dies by a signal before answering anything.
process.kill(process.pid, 'SIGKILL');

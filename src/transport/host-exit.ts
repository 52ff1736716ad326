/**
 * No orphan when the host forgets dispose() or exits abruptly (ADR-0010). While at least one
 * transport owns processes, the host's `exit` event (normal end, process.exit, uncaught
 * exception) and SIGINT/SIGTERM/SIGHUP — when nobody else handles them — SIGKILL every owned
 * process synchronously: the app-server's group while its leader is unreaped, then every process
 * carrying a live transport's owner marker, each identity re-read before its signal. Nobody can
 * wait after `exit`, hence SIGKILL. Listeners are installed only while something is owned.
 */

/** What the registry needs of a live transport. */
export interface HostExitTarget {
  /** Signal everything it owns, synchronously; never throws. */
  killNow(): void;
}

const FORWARDED_SIGNALS = ['SIGINT', 'SIGTERM', 'SIGHUP'] as const;
type ForwardedSignal = (typeof FORWARDED_SIGNALS)[number];

const targets = new Set<HostExitTarget>();
let installed = false;

function killAll(): void {
  for (const target of [...targets]) {
    try {
      target.killNow();
    } catch {
      // the others still get their signal
    }
  }
  targets.clear();
}

function onExit(): void {
  killAll();
  uninstall();
}

const signalHandlers = new Map<ForwardedSignal, () => void>();
for (const signal of FORWARDED_SIGNALS) {
  signalHandlers.set(signal, () => {
    // The host handles this signal itself: its handler decides, and `exit` still covers us.
    if (process.listenerCount(signal) > 1) return;
    killAll();
    uninstall();
    // keep the default disposition: die of the same signal, as if we had never listened
    process.kill(process.pid, signal);
  });
}

function install(): void {
  if (installed) return;
  installed = true;
  process.on('exit', onExit);
  for (const [signal, handler] of signalHandlers) process.on(signal, handler);
}

function uninstall(): void {
  if (!installed) return;
  installed = false;
  process.removeListener('exit', onExit);
  for (const [signal, handler] of signalHandlers) process.removeListener(signal, handler);
}

/** Track a transport that owns processes; returns the function that stops tracking it. */
export function trackUntilClosed(target: HostExitTarget): () => void {
  targets.add(target);
  install();
  return () => {
    targets.delete(target);
    if (targets.size === 0) uninstall();
  };
}

/** Test seam: how many transports are tracked and whether the listeners are installed. */
export function hostExitState(): { readonly tracked: number; readonly installed: boolean } {
  return { tracked: targets.size, installed };
}

/**
 * Ctrl-C as a person expects it: the first press interrupts the turn (the session stays), the
 * second disposes the session and the command exits 130. Presses arrive as SIGINT, or — while
 * a prompt holds the terminal in raw mode — from the prompt itself.
 */
export interface CtrlCHandlers {
  /** First press: interrupt the active turn. */
  readonly interrupt: () => void;
  /** Second press: give up on the session. */
  readonly quit: () => void;
}

/** SIGTERM and SIGHUP (a closed terminal) end the session like a second Ctrl-C. */
const TERMINATING = { SIGTERM: 143, SIGHUP: 129 } as const;

export class CtrlC {
  private presses = 0;
  private uninstall: (() => void) | undefined;
  /** The exit code the command ends with when it quits: 130 for Ctrl-C, 128+n for a signal. */
  quitCode = 130;

  constructor(private readonly handlers: CtrlCHandlers) {}

  get count(): number {
    return this.presses;
  }

  press(): void {
    this.presses += 1;
    if (this.presses === 1) this.handlers.interrupt();
    else if (this.presses === 2) this.handlers.quit();
  }

  /** Listens for SIGINT (replacing Node's default exit) until `dispose()`. */
  install(proc: NodeJS.Process = process): this {
    const onSigint = (): void => {
      this.press();
    };
    const onTerminate = (signal: NodeJS.Signals): void => {
      if (this.presses >= 2) return;
      this.presses = 2;
      this.quitCode = signal === 'SIGHUP' ? TERMINATING.SIGHUP : TERMINATING.SIGTERM;
      this.handlers.quit();
    };
    proc.on('SIGINT', onSigint);
    proc.on('SIGTERM', onTerminate);
    proc.on('SIGHUP', onTerminate);
    this.uninstall = () => {
      proc.off('SIGINT', onSigint);
      proc.off('SIGTERM', onTerminate);
      proc.off('SIGHUP', onTerminate);
    };
    return this;
  }

  dispose(): void {
    this.uninstall?.();
    this.uninstall = undefined;
  }
}

/** The wiring `demo` and `run` share: Ctrl-C drives the session through its driver. */
export function ctrlCFor(
  driver: { interrupt(): Promise<void>; quit(): void },
  warn: (line: string) => void,
): CtrlC {
  return new CtrlC({
    interrupt: () => {
      warn('interrupting the turn… (Ctrl-C again to quit)');
      void driver.interrupt();
    },
    quit: () => {
      warn('quitting: disposing the session');
      driver.quit();
    },
  }).install();
}

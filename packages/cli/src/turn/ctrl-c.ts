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

  /**
   * A new turn of the same session starts: its first press interrupts it again. After a quit (or
   * a terminating signal) nothing is re-armed.
   */
  rearm(): void {
    if (this.presses < 2) this.presses = 0;
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

/** A press or a signal arrived before the session was ready: start-up stops there. */
export class StartupAborted extends Error {
  constructor() {
    super('start-up abandoned by Ctrl-C or a signal');
    this.name = 'StartupAborted';
  }
}

interface Driven {
  interrupt(): Promise<void>;
  quit(): void;
}

/**
 * The wiring `demo` and `run` share, installed before anything is created: until `attach()`
 * hands it the session's driver, a press or a signal only marks start-up as abandoned (the next
 * `checkpoint()` throws `StartupAborted` and the command's own clean-up runs); afterwards
 * Ctrl-C drives the session through its driver.
 */
export class SessionCtrlC extends CtrlC {
  private readonly target: { driver: Driven | undefined; abandoned: boolean };
  private readonly abandon: Promise<never>;

  constructor(warn: (line: string) => void) {
    let reject: (error: StartupAborted) => void = () => undefined;
    const abandon = new Promise<never>((_resolve, rejectWith) => {
      reject = rejectWith;
    });
    // nobody may be waiting on it: an abandoned start-up is reported through checkpoint() too
    abandon.catch(() => undefined);
    const target: { driver: Driven | undefined; abandoned: boolean } = {
      driver: undefined,
      abandoned: false,
    };
    const abandonStartup = (): void => {
      target.abandoned = true;
      reject(new StartupAborted());
    };
    const stop = (): void => {
      if (target.driver === undefined) abandonStartup();
      else void target.driver.interrupt();
    };
    super({
      interrupt: () => {
        warn('interrupting the turn… (Ctrl-C again to quit)');
        stop();
      },
      quit: () => {
        warn('quitting: disposing the session');
        if (target.driver === undefined) abandonStartup();
        else target.driver.quit();
      },
    });
    this.target = target;
    this.abandon = abandon;
    this.stopTurn = stop;
  }

  /** Interrupts the turn, or abandons start-up, without counting as a press (`--timeout`). */
  readonly stopTurn: () => void;

  /** Gives up on the session as a second press would, without saying Ctrl-C was pressed. */
  giveUp(): void {
    if (this.target.driver === undefined) this.stopTurn();
    else this.target.driver.quit();
  }

  /** `work`, unless start-up is abandoned first: then `StartupAborted`, without waiting for it. */
  unlessAbandoned<T>(work: Promise<T>): Promise<T> {
    return Promise.race([work, this.abandon]);
  }

  attach(driver: Driven): void {
    this.target.driver = driver;
  }

  /** Throws `StartupAborted` when a press or a signal came before `attach()`. */
  checkpoint(): void {
    if (this.target.abandoned) throw new StartupAborted();
  }
}

/** Ctrl-C and SIGTERM/SIGHUP handled from now on (see SessionCtrlC). */
export function ctrlCFor(warn: (line: string) => void): SessionCtrlC {
  return new SessionCtrlC(warn).install();
}

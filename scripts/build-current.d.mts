/** The repository root. */
export declare const ROOT: string;
/** The built CLI's entry module. */
export declare const BUILT_CLI: string;
/** True when every built package exists and none is older than the newest source. */
export declare function buildIsCurrent(): boolean;
/** `npm run build`, its output dropped and its errors passed on; true when it succeeded. */
export declare function build(): boolean;

import pc from 'picocolors';

/** Where a command writes. The CLI passes the process streams; tests pass collectors. */
export interface Io {
  out: (text: string) => void;
  err: (text: string) => void;
  /** Whether to colour output (a terminal, and neither `NO_COLOR` nor `--no-color`). */
  color: boolean;
}

export function processIo(): Io {
  return {
    out: (text) => process.stdout.write(`${text}\n`),
    err: (text) => process.stderr.write(`${text}\n`),
    color: pc.isColorSupported && process.stdout.isTTY === true,
  };
}

/** picocolors bound to an `Io`'s colour setting, so piped output stays plain. */
export function colors(io: Io): ReturnType<typeof pc.createColors> {
  return pc.createColors(io.color);
}

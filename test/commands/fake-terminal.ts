/**
 * A fake terminal for a command's stderr: it records every byte, answers the cursor moves a spinner
 * makes (as a tty.WriteStream does, with escape sequences), and replays them into the screen a
 * person would see. Output beyond `maxBytes` throws, so a runaway writer fails the test instead of
 * hanging it.
 */
import { join } from 'node:path';
import { Readable } from 'node:stream';
import { execute } from '../../src/cli/program.js';
import type { Captured } from './harness.js';
import { tempDir } from '../support/temp-dirs.js';

export interface FakeTerminal {
  readonly isTTY: true;
  columns: number | undefined;
  rows: number;
  /** Everything written, escape sequences included. */
  raw: string;
  write(chunk: string): boolean;
  cursorTo(x: number): boolean;
  moveCursor(dx: number, dy: number): boolean;
  clearLine(dir: number): boolean;
  /** The lines on the screen now, trailing blanks dropped. */
  screen(): string[];
  on(event: 'resize', listener: () => void): FakeTerminal;
  /** A new width, announced as a tty.WriteStream does ('resize'). */
  resize(columns: number): void;
}

export function fakeTerminal(columns: number | undefined, maxBytes = 1_000_000): FakeTerminal {
  const onResize: (() => void)[] = [];
  const terminal: FakeTerminal = {
    isTTY: true,
    columns,
    rows: 24,
    raw: '',
    write(chunk) {
      terminal.raw += chunk;
      if (terminal.raw.length > maxBytes) throw new Error(`the terminal received more than ${maxBytes} bytes: the output does not stop`);
      return true;
    },
    cursorTo: (x) => terminal.write(`\x1b[${x + 1}G`),
    moveCursor: (dx, dy) => terminal.write(`${dx > 0 ? `\x1b[${dx}C` : dx < 0 ? `\x1b[${-dx}D` : ''}${dy > 0 ? `\x1b[${dy}B` : dy < 0 ? `\x1b[${-dy}A` : ''}`),
    clearLine: (dir) => terminal.write(dir < 0 ? '\x1b[1K' : dir > 0 ? '\x1b[0K' : '\x1b[2K'),
    screen: () => replay(terminal.raw),
    on(_event, listener) {
      onResize.push(listener);
      return terminal;
    },
    resize(width) {
      terminal.columns = width;
      for (const listener of onResize) listener();
    },
  };
  return terminal;
}

/** Replays text with the few cursor sequences spinners and readline use; other sequences (colour) are ignored. */
function replay(raw: string): string[] {
  const lines: string[][] = [[]];
  let row = 0;
  let col = 0;
  const line = () => (lines[row] ??= []);
  for (let i = 0; i < raw.length; i++) {
    const ch = raw[i]!;
    if (ch === '\x1b') {
      const m = /^\x1b\[([?\d;]*)([A-Za-z])/.exec(raw.slice(i, i + 16));
      if (!m) continue;
      i += m[0].length - 1;
      const n = Number(m[1]!.replace('?', '') || '0');
      switch (m[2]) {
        case 'G':
          col = Math.max(0, n - 1);
          break;
        case 'A':
          row = Math.max(0, row - (n || 1));
          break;
        case 'B':
          row += n || 1;
          break;
        case 'C':
          col += n || 1;
          break;
        case 'D':
          col = Math.max(0, col - (n || 1));
          break;
        case 'K':
          if (n === 0) line().length = Math.min(line().length, col);
          else if (n === 2) lines[row] = [];
          else for (let c = 0; c < col && c < line().length; c++) line()[c] = ' ';
          break;
        case 'J':
          line().length = Math.min(line().length, col);
          lines.length = Math.min(lines.length, row + 1);
          break;
      }
    } else if (ch === '\n') {
      row++;
      col = 0;
    } else if (ch === '\r') {
      col = 0;
    } else {
      const l = line();
      while (l.length < col) l.push(' ');
      l[col++] = ch;
    }
  }
  const text = Array.from(lines, (l) => (l ?? []).join('').trimEnd());
  while (text.length > 0 && text[text.length - 1] === '') text.pop();
  return text;
}

/** Runs a command in-process with `stderr` as its stderr (stdout captured; stdin not a terminal unless given). */
export async function runWithStderr(
  argv: string[],
  stderr: { write(s: string): unknown; isTTY?: boolean; columns?: number },
  options: { cwd?: string; env?: Record<string, string>; stdin?: Readable & { isTTY?: boolean } } = {},
): Promise<Omit<Captured, 'stderr'>> {
  let stdout = '';
  const home = tempDir('jobs-home-');
  const env = { HOME: home, XDG_CONFIG_HOME: join(home, 'config'), XDG_STATE_HOME: join(home, 'state'), NO_COLOR: '1', ...options.env };
  const stdin = options.stdin ?? Object.assign(Readable.from([]), { isTTY: false });
  const code = await execute(argv, {
    io: { stdin, stdout: { write: (s: string) => (stdout += s), isTTY: false }, stderr },
    env,
    cwd: options.cwd ?? process.cwd(),
    handleSignals: false,
  });
  return { code, stdout };
}

/**
 * The one live line at the bottom of a terminal's stderr (an ora spinner). A bulk run's progress and
 * a slow request share it, since two spinners on one stream garble each other, and lines printed
 * through it go above it. It exists only where stderr is a terminal of known width: on a terminal
 * that reports 0 columns (`script`, `expect`, some CI wrappers) the spinner would clear an endless
 * number of wrapped lines, so such runs get the plain lines of a non-terminal.
 */
import type { Ora } from 'ora';
import type { Context, OutStream } from '../context.js';
import { useColor } from './color.js';
import { formatEntry } from './format-registry.js';

/** The parts of the line, in the order they are shown. */
const PARTS = ['progress', 'request'] as const;
export type LivePart = (typeof PARTS)[number];

export interface LiveLine {
  /** Shows `text` as one part of the line; undefined removes the part. No part left: no line. */
  set(part: LivePart, text: string | undefined): void;
  /** Writes whole lines to `stream` (stdout or stderr) without breaking the live line. */
  print(stream: OutStream, text: string): void;
  /** Takes the line away (for a question on the terminal) until the returned function is called. */
  hold(): () => void;
}

/** Progress, waits and other status lines go to stderr, except with --quiet or a document format. */
export function showsStatus(ctx: Context): boolean {
  return !ctx.globals.quiet && !formatEntry(ctx.globals.output).document;
}

/** The terminal's width, or undefined when the stream is no terminal or does not know its width. */
export function terminalWidth(stream: OutStream): number | undefined {
  const columns = stream.isTTY ? stream.columns : undefined;
  return typeof columns === 'number' && Number.isFinite(columns) && columns > 0 ? columns : undefined;
}

const lines = new WeakMap<OutStream, SpinnerLine>();

/** The live line of the run's stderr, or undefined where there must be none (then print plain lines). */
export function liveLine(ctx: Context): LiveLine | undefined {
  const stream = ctx.io.stderr;
  // TERM=dumb (an editor's shell buffer) cannot move the cursor: the frames would pile up.
  if (!showsStatus(ctx) || ctx.env.CI || ctx.env.TERM === 'dumb' || terminalWidth(stream) === undefined) return undefined;
  let line = lines.get(stream);
  if (!line) {
    line = new SpinnerLine(stream, useColor(stream, ctx.env, ctx.globals.color));
    lines.set(stream, line);
  }
  return line;
}

type MakeOra = (typeof import('ora'))['default'];

class SpinnerLine implements LiveLine {
  private readonly parts = new Map<LivePart, string>();
  private spinner: Ora | undefined;
  private makeOra: MakeOra | undefined;
  private loading: Promise<void> | undefined;
  private holds = 0;

  constructor(
    private readonly stream: OutStream,
    private readonly color: boolean,
  ) {
    // Node updates `columns` and emits 'resize' in one step, so a terminal shrunk to no width
    // stops the spinner before its next frame.
    (stream as Partial<NodeJS.EventEmitter>).on?.('resize', () => this.update());
  }

  set(part: LivePart, text: string | undefined): void {
    if (text === undefined) this.parts.delete(part);
    else this.parts.set(part, text);
    this.update();
  }

  print(stream: OutStream, text: string): void {
    const spinner = this.spinner;
    if (spinner) spinner.clear();
    stream.write(text);
    if (spinner) spinner.render();
  }

  hold(): () => void {
    this.holds++;
    this.update();
    let released = false;
    return () => {
      if (released) return;
      released = true;
      this.holds--;
      this.update();
    };
  }

  private update(): void {
    const width = terminalWidth(this.stream);
    const shown = PARTS.flatMap((p) => this.parts.get(p) ?? []);
    if (width === undefined || shown.length === 0 || this.holds > 0) {
      this.spinner?.stop();
      this.spinner = undefined;
      return;
    }
    // Frame, space, text: kept to one row, so clearing it is always one line.
    const text = fit(shown.join(' · '), width - 3);
    if (this.spinner) this.spinner.text = text;
    else if (this.makeOra) {
      this.spinner = this.makeOra({
        text,
        stream: this.stream as NodeJS.WritableStream,
        color: this.color ? 'cyan' : 'white',
        isEnabled: true,
        discardStdin: false,
      }).start();
    } else {
      // ora is loaded on the first use: most runs never show a live line.
      this.loading ??= import('ora').then(
        (m) => {
          this.makeOra = m.default;
          this.update();
        },
        () => undefined,
      );
    }
  }
}

function fit(text: string, width: number): string {
  const chars = [...text];
  if (chars.length <= width) return text;
  return width <= 1 ? chars.slice(0, Math.max(0, width)).join('') : `${chars.slice(0, width - 1).join('')}…`;
}

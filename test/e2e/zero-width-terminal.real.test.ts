/**
 * A terminal that reports 0 columns (`script`, `expect`, some CI tty wrappers): the built binary
 * runs a bulk publish under util-linux `script` after `stty cols 0`. The run must end with the
 * plain output of a non-terminal, not loop redrawing a progress line.
 */
import { spawn } from 'node:child_process';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { advertYaml } from '../commands/harness.js';
import { BIN, isolatedEnv } from './helpers.js';
import { tempDir } from '../support/temp-dirs.js';

const MAX_BYTES = 100_000;

const quote = (s: string): string => `'${s.replace(/'/g, `'\\''`)}'`;

/** Runs `shell` in a pseudo-terminal; stops it (and fails) when it writes too much or takes too long. */
function underScript(shell: string, cwd: string): Promise<{ code: number | null; output: string }> {
  return new Promise((done, fail) => {
    const child = spawn('script', ['-qec', shell, '/dev/null'], { cwd, env: isolatedEnv(), stdio: ['pipe', 'pipe', 'pipe'] });
    let output = '';
    const stop = (why: string) => {
      child.kill('SIGKILL');
      fail(new Error(`${why}; output began: ${JSON.stringify(output.slice(0, 300))}`));
    };
    const timer = setTimeout(() => stop('the run did not end within 20s'), 20_000);
    const collect = (chunk: Buffer) => {
      output += chunk.toString('utf8');
      if (output.length > MAX_BYTES) {
        clearTimeout(timer);
        stop(`the run wrote more than ${MAX_BYTES} bytes`);
      }
    };
    child.stdout.on('data', collect);
    child.stderr.on('data', collect);
    child.on('error', fail);
    child.on('close', (code) => {
      clearTimeout(timer);
      done({ code, output });
    });
    child.stdin.end();
  });
}

describe('a terminal with no width', () => {
  it('a bulk publish under `script` with `stty cols 0` ends, with bounded plain output', async () => {
    const dir = tempDir('jobs-zero-width-');
    for (const ref of ['Z-1', 'Z-2', 'Z-3']) writeFileSync(join(dir, `${ref}.yaml`), advertYaml(ref));
    // `timeout` bounds the binary itself, even should it stop answering signals.
    const run = await underScript(`stty cols 0 rows 0 && exec timeout -s KILL 15 ${quote(process.execPath)} ${quote(BIN)} --sandbox publish .`, dir);
    expect(run.code, run.output).toBe(0);
    expect(run.output).toContain('3 adverts: 3 created');
    expect(run.output.length).toBeLessThan(2_000);
    // No spinner frames: no cursor moves or line clearing.
    expect(run.output).not.toMatch(/\x1b\[\d*[GKA]/);
  });
});

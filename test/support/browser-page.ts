/**
 * A page opened in headless Chromium and driven over the DevTools protocol (through a pipe: no
 * port, no WebSocket package): the viewport set exactly (a phone's 390 px, below the smallest
 * window headless Chromium makes), an expression evaluated in the page, and every console message,
 * uncaught exception, log entry (a CSP violation) and dialog (alert, confirm, prompt) the page
 * caused, recorded. The same browser and flags as chromium.ts; each run gets its own profile folder
 * and a hard timeout.
 */
import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Readable, Writable } from 'node:stream';
import { chromiumBinary, chromiumFlags } from './chromium.js';

export interface PageRun<T> {
  /** What each expression evaluated to, by viewport, in the order asked. */
  results: { width: number; height: number; value: T }[];
  /** Console messages, exceptions, log entries and dialogs, as `kind: text`. */
  events: string[];
}

interface Message {
  id?: number;
  method?: string;
  params?: Record<string, unknown>;
  result?: Record<string, unknown>;
  error?: { message: string };
  sessionId?: string;
}

export async function openPage<T>(
  url: string,
  viewports: readonly { width: number; height: number }[],
  expression: string,
  timeoutMs = 60_000,
): Promise<PageRun<T>> {
  const profile = mkdtempSync(join(tmpdir(), 'jobs-cdp-'));
  const child = spawn(chromiumBinary(), [...chromiumFlags(profile), '--remote-debugging-pipe', 'about:blank'], {
    stdio: ['ignore', 'ignore', 'pipe', 'pipe', 'pipe'],
    // Chromium leaves org.chromium.Chromium.* files in TMPDIR when it is stopped: inside its profile, they go with it.
    env: { ...process.env, TMPDIR: profile },
  });
  const toBrowser = child.stdio[3] as Writable;
  const fromBrowser = child.stdio[4] as Readable;
  let stderr = '';
  child.stderr!.setEncoding('utf8').on('data', (d: string) => (stderr = (stderr + d).slice(-4000)));
  const events: string[] = [];
  const waiting = new Map<number, { resolve: (m: Message) => void; reject: (e: Error) => void }>();
  const listeners: ((m: Message) => void)[] = [];
  let next = 1;
  let buffer = '';
  fromBrowser.setEncoding('utf8').on('data', (chunk: string) => {
    buffer += chunk;
    let end;
    while ((end = buffer.indexOf('\0')) >= 0) {
      const message = JSON.parse(buffer.slice(0, end)) as Message;
      buffer = buffer.slice(end + 1);
      if (message.id !== undefined && waiting.has(message.id)) {
        const w = waiting.get(message.id)!;
        waiting.delete(message.id);
        if (message.error) w.reject(new Error(message.error.message));
        else w.resolve(message);
      } else for (const l of listeners) l(message);
    }
  });
  const send = (method: string, params: Record<string, unknown> = {}, sessionId?: string): Promise<Message> =>
    new Promise((resolve, reject) => {
      const id = next++;
      waiting.set(id, { resolve, reject });
      toBrowser.write(`${JSON.stringify({ id, method, params, ...(sessionId ? { sessionId } : {}) })}\0`);
    });
  const timer = setTimeout(() => child.kill('SIGKILL'), timeoutMs);
  const exited = new Promise<void>((resolve) => child.on('close', () => resolve()));
  try {
    const failed = new Promise<never>((_, reject) => {
      child.on('error', (e) => reject(new Error(`cannot run chromium (install it: apt-get install -y chromium): ${e.message}`)));
      child.on('close', (code) => reject(new Error(`chromium exited (${code}) before the page was read\n${stderr}`)));
    });
    const run = async (): Promise<PageRun<T>> => {
      const { targetId } = (await send('Target.createTarget', { url: 'about:blank' })).result as { targetId: string };
      const { sessionId } = (await send('Target.attachToTarget', { targetId, flatten: true })).result as { sessionId: string };
      listeners.push((m) => {
        if (m.sessionId !== sessionId || !m.params) return;
        const p = m.params as {
          type?: string;
          message?: string;
          args?: { value?: unknown; description?: string }[];
          exceptionDetails?: { text?: string; exception?: { description?: string } };
          entry?: { level: string; text: string };
        };
        if (m.method === 'Runtime.consoleAPICalled') events.push(`console.${p.type}: ${(p.args ?? []).map((a) => String(a.value ?? a.description)).join(' ')}`);
        if (m.method === 'Runtime.exceptionThrown') events.push(`exception: ${p.exceptionDetails?.exception?.description ?? p.exceptionDetails?.text}`);
        if (m.method === 'Log.entryAdded') events.push(`log.${p.entry!.level}: ${p.entry!.text}`);
        if (m.method === 'Page.javascriptDialogOpening') {
          events.push(`dialog.${p.type}: ${p.message}`);
          void send('Page.handleJavaScriptDialog', { accept: false }, sessionId);
        }
      });
      for (const domain of ['Page', 'Runtime', 'Log']) await send(`${domain}.enable`, {}, sessionId);
      const results: PageRun<T>['results'] = [];
      for (const { width, height } of viewports) {
        await send('Emulation.setDeviceMetricsOverride', { width, height, deviceScaleFactor: 1, mobile: width < 600 }, sessionId);
        const loaded = new Promise<void>((resolve) => listeners.push((m) => m.sessionId === sessionId && m.method === 'Page.loadEventFired' && resolve()));
        await send('Page.navigate', { url }, sessionId);
        await loaded;
        const evaluated = (await send('Runtime.evaluate', { expression, returnByValue: true }, sessionId)).result as {
          result: { value: T };
          exceptionDetails?: unknown;
        };
        if (evaluated.exceptionDetails) throw new Error(`the expression threw: ${JSON.stringify(evaluated.exceptionDetails)}`);
        results.push({ width, height, value: evaluated.result.value });
      }
      await send('Browser.close').catch(() => undefined);
      return { results, events };
    };
    return await Promise.race([run(), failed]);
  } finally {
    clearTimeout(timer);
    child.kill('SIGKILL');
    await exited;
    rmSync(profile, { recursive: true, force: true });
  }
}

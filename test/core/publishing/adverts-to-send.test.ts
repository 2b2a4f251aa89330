// `publish` of many files checks them all before it sends any: a Ctrl-C during that check stops it
// within a few hundred files (a CancelledError, exit 130) instead of checking the rest first.
import { describe, expect, it } from 'vitest';
import { checkAdvertsToSend } from '../../../src/core/publishing/adverts-to-send.js';
import { NO_SETTINGS } from '../../../src/core/validation/check.js';
import { advertYaml, tempFolder } from '../../commands/harness.js';
import { filesBeforeStop } from '../../support/stopped.js';

const noStdin = async function* (): AsyncGenerator<string> {};

describe('the adverts a publish sends', () => {
  const files: Record<string, string> = {};
  for (let i = 0; i < 600; i++) files[`ad-${String(i).padStart(3, '0')}.yaml`] = advertYaml(`R-${i}`);
  const dir = tempFolder(files);
  const inputs = { cwd: dir, env: {}, stdin: noStdin, settings: NO_SETTINGS };

  it('are every advert of the files, in file order', async () => {
    const { adverts } = await checkAdvertsToSend(inputs, ['.']);
    expect(adverts.map((a) => a.reference)).toEqual(Object.keys(files).map((_, i) => `R-${i}`));
  });

  it('are not all checked once the run is stopped: a CancelledError saying how far it got', async () => {
    const controller = new AbortController();
    // Ctrl-C as soon as the event loop turns: the check must let it turn as it goes, not only at its end.
    setImmediate(() => controller.abort());
    const checked = await filesBeforeStop(
      checkAdvertsToSend({ ...inputs, signal: controller.signal }, ['.']),
      /^stopped after checking (\d+) files?; the rest were not checked; nothing was sent$/,
    );
    expect(checked).toBeLessThan(600);
  });

  it('read with stdin among them (held whole) are not all read once the run is stopped', async () => {
    const controller = new AbortController();
    setImmediate(() => controller.abort());
    const stdin = async function* (): AsyncGenerator<string> {
      yield advertYaml('FROM-STDIN');
    };
    const read = await filesBeforeStop(
      checkAdvertsToSend({ ...inputs, stdin, signal: controller.signal }, ['-', '.']),
      /^stopped after reading (\d+) files?; the rest were not read; nothing was sent$/,
    );
    expect(read).toBeLessThan(601);
  });
});

/** version: the version, and with --json the platform too (for bug reports and CI logs). */
import type { Context } from '../../context.js';
import { VERSION } from '../../../core/version.js';
import { jsonText } from '../../output/json-output.js';
import { isJson } from '../../output/command-io.js';

export function runVersion(ctx: Context): number {
  if (isJson(ctx)) ctx.io.stdout.write(jsonText({ version: VERSION, node: process.versions.node, platform: process.platform, arch: process.arch }));
  else ctx.io.stdout.write(`${VERSION}\n`);
  return 0;
}

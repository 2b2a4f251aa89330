#!/usr/bin/env node
/**
 * The public API's report, etc/jobs-cli.api.md (API Extractor): the declarations of src/index.ts,
 * written by tsc to a temporary folder (so a stale dist/ cannot hide a change), then compared with
 * the checked-in report.
 *
 *   node scripts/api-report.mjs            check: exit 1 with a diff when the public surface changed
 *   node scripts/api-report.mjs --update   write the report (commit it with the change)
 */
import { spawnSync } from 'node:child_process';
import { copyFileSync, mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Extractor, ExtractorConfig } from '@microsoft/api-extractor';

const root = new URL('..', import.meta.url).pathname;
const update = process.argv.includes('--update');
const out = mkdtempSync(join(tmpdir(), 'jobs-api-report-'));
try {
  const tsc = spawnSync(process.execPath, [join(root, 'node_modules/typescript/bin/tsc'), '-p', 'tsconfig.build.json', '--outDir', join(out, 'd')], {
    cwd: root,
    stdio: 'inherit',
  });
  if (tsc.status !== 0) throw new Error(`tsc (declarations) failed with exit code ${tsc.status}`);
  // The declarations import the generated validators' types; tsc does not copy a .d.ts input.
  mkdirSync(join(out, 'd/core/generated'), { recursive: true });
  copyFileSync(join(root, 'src/core/generated/validators.d.ts'), join(out, 'd/core/generated/validators.d.ts'));

  const configObjectFullPath = join(root, 'api-extractor.json');
  const configObject = ExtractorConfig.loadFile(configObjectFullPath);
  configObject.mainEntryPointFilePath = join(out, 'd/index.d.ts');
  configObject.apiReport = { ...configObject.apiReport, reportTempFolder: join(out, 'report') };
  const config = ExtractorConfig.prepare({ configObject, configObjectFullPath, packageJsonFullPath: join(root, 'package.json') });
  const result = Extractor.invoke(config, {
    localBuild: update,
    showVerboseMessages: false,
    messageCallback: (m) => {
      // The changed-report warning is ours to word (below); everything else is shown as it is.
      if (m.messageId === 'console-api-report-changed' || m.messageId === 'console-api-report-copied') m.handled = true;
    },
  });
  if (update) {
    console.log(result.apiReportChanged ? `updated ${config.reportFilePath}` : `${config.reportFilePath} is up to date`);
    process.exitCode = result.succeeded ? 0 : 1;
  } else if (result.apiReportChanged) {
    spawnSync('diff', ['-u', config.reportFilePath, config.reportTempFilePath], { stdio: 'inherit' });
    console.error(
      `\nThe public API (src/index.ts) changed and etc/jobs-cli.api.md does not say so (diff above).\n` +
        `If the change is meant, run \`npm run api:update\` and commit the report; a removal or an incompatible change\n` +
        `is a major version (CHANGELOG.md). If it is not meant, keep the internal out of src/index.ts.`,
    );
    process.exitCode = 1;
  } else process.exitCode = result.succeeded ? 0 : 1;
} finally {
  rmSync(out, { recursive: true, force: true });
}

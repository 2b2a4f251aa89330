// npm pack / npm publish: build, and ship a package.json without the `prepare` script.
//
// `prepare` builds dist/ for a clone (`npm ci`) and for a git install (`npm install github:...`),
// which get the sources. The packed package already holds dist/: there, a `prepare` script is only
// an install script that npm 11 warns about ("has install scripts not yet covered by allowScripts")
// and would ask users to allow. So `prepack` takes it out of package.json, and `postpack` puts the
// file back byte for byte (as pinst does for postinstall).
//
//   node scripts/prepack.mjs            build (skipped with JOBS_PACK_NO_BUILD=1), then strip
//   node scripts/prepack.mjs --restore  put package.json back
import { existsSync, mkdirSync, readFileSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { spawnSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';

const root = fileURLToPath(new URL('..', import.meta.url));
const manifest = `${root}package.json`;
const backupDir = `${root}node_modules/.cache/jobs-prepack`;
const backup = `${backupDir}/package.json`;

function restore() {
  if (!existsSync(backup)) return;
  writeFileSync(`${manifest}.tmp`, readFileSync(backup));
  renameSync(`${manifest}.tmp`, manifest);
  rmSync(backup);
}

if (process.argv.includes('--restore')) {
  restore();
} else {
  // A pack that failed before its postpack left the stripped file: put the original back first.
  restore();
  if (process.env.JOBS_PACK_NO_BUILD !== '1') {
    const build = spawnSync(process.execPath, [`${root}scripts/build.mjs`], { cwd: root, stdio: 'inherit' });
    if (build.status !== 0) process.exit(build.status ?? 1);
  }
  const text = readFileSync(manifest, 'utf8');
  const pkg = JSON.parse(text);
  if (pkg.scripts?.prepare !== undefined) {
    mkdirSync(backupDir, { recursive: true });
    writeFileSync(backup, text);
    delete pkg.scripts.prepare;
    writeFileSync(`${manifest}.tmp`, `${JSON.stringify(pkg, null, 2)}\n`);
    renameSync(`${manifest}.tmp`, manifest);
  }
}

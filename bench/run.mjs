// Benchmarks, each printed as a ratio against a baseline measured in the same run.
// Usage: node bench/run.mjs [startup] [validate]   (all when none is named)
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { compare, report } from './lib.mjs';
import { advertYaml, generateAdverts } from './generate.mjs';

const root = new URL('..', import.meta.url).pathname;
const work = join(root, 'bench/.work');
const bin = join(root, 'bin/jobs.js');
const node = process.execPath;
const wanted = new Set(process.argv.slice(2));
const want = (name) => wanted.size === 0 || wanted.has(name);
// A fresh HOME so no user config is read; the same for every command measured.
const env = { PATH: process.env.PATH, HOME: join(work, 'home'), NO_COLOR: '1' };
mkdirSync(join(work, 'home'), { recursive: true });
const opts = { env, cwd: work };

console.log(`jobs benchmarks (node ${process.version}, ${new Date().toISOString().slice(0, 10)})`);

if (want('startup')) {
  const one = join(work, 'one-advert.yaml');
  writeFileSync(one, advertYaml(1));
  const baseline = [node, ['-e', '0'], opts];
  report('jobs --version / node -e 0', compare([node, [bin, '--version'], opts], baseline, 30), 1.3);
  report('jobs validate one-advert.yaml / node -e 0', compare([node, [bin, 'validate', one], opts], baseline, 30), 1.8);
}

if (want('validate')) {
  const dir = generateAdverts(join(work, 'adverts-10k'), 10_000);
  const ajv = join(root, 'node_modules/ajv-cli/dist/index.js');
  const schema = join(root, 'schemas/advert.schema.json');
  const ajvArgs = [ajv, 'validate', '--spec=draft2020', '--strict=false', '--all-errors', '-c', 'ajv-formats', '-s', schema, '-d', `${dir}/*.yaml`];
  report(
    'jobs validate 10,000 files / ajv-cli on the same files',
    compare([node, [bin, 'validate', dir], opts], [node, ajvArgs, { ...opts, cwd: root }], 5),
    1.0,
  );
}

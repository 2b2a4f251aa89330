import { describe, expect, it } from 'vitest';
import { programName } from '../../src/cli/program-name.js';
import { renamed } from '../../src/cli/program.js';

describe('programName: the name the tool was invoked under', () => {
  it.each([
    ['/usr/local/bin/jobs-cli', {}, 'jobs-cli'],
    ['/home/a/project/node_modules/.bin/jobs', {}, 'jobs'],
    ['/home/a/jobs-cli/bin/jobs.js', {}, 'jobs-cli'],
    ['bin/jobs.js', {}, 'jobs-cli'],
    [undefined, {}, 'jobs-cli'],
    ['/usr/lib/node_modules/jobs-cli/bin/jobs.js', { JOBS_CLI_NAME: 'jobs' }, 'jobs'],
    ['/usr/local/bin/jobs-cli', { JOBS_CLI_NAME: 'x; rm -rf' }, 'jobs-cli'],
  ])('%s with %j: %s', (invokedAs, env, name) => {
    expect(programName(invokedAs, env)).toBe(name);
  });
});

describe('renamed: hints from layers without a context name the tool as invoked', () => {
  it.each([
    ['run `jobs login`', 'run `jobs-cli login`'],
    ["Define it with 'jobs config set x', or 'jobs --profile p login'.", "Define it with 'jobs-cli config set x', or 'jobs-cli --profile p login'."],
    ['or reference an environment variable: jobs config set a b', 'or reference an environment variable: jobs-cli config set a b'],
    ['echo "$T" | jobs login --with-token', 'echo "$T" | jobs-cli login --with-token'],
    // prose about the tool or its files stays
    ['written by a newer jobs (state version 3); upgrade jobs', 'written by a newer jobs (state version 3); upgrade jobs'],
    ['the jobs sync state', 'the jobs sync state'],
  ])('%s', (text, expected) => {
    expect(renamed(text, 'jobs-cli')).toBe(expected);
  });
});

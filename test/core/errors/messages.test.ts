/**
 * Messages a recruiter can act on: each keeps `file:line:col` and the service's identifier, and
 * says what to write instead (issue 10), as `jobs validate` / `jobs update` print them.
 */
import nock from 'nock';
import { afterEach, describe, expect, it } from 'vitest';
import { advertYaml, runJobs, SERVICE, serviceEnv, tempFolder } from '../../commands/harness.js';

afterEach(() => nock.cleanAll());

/** The harness advert with `location` replaced (it is the last block but the recruiter's). */
const withLocation = (reference: string, location: string, extra = '') =>
  advertYaml(reference, extra).replace('location:\n  country: NO\n  city: Oslo\n', location);

async function validate(files: Record<string, string>, args: string[] = []) {
  const dir = tempFolder(files);
  return runJobs(['validate', ...args, ...Object.keys(files).filter((f) => f.endsWith('.yaml') && !f.startsWith('.'))], { cwd: dir });
}

describe('dates', () => {
  it('says a day that does not exist does not exist, and the format', async () => {
    const r = await validate({ 'a.yaml': advertYaml('D-1', 'start_date: 2027-02-30\n') });
    expect(r.stdout).toBe(
      '✖ a.yaml:18:13: start_date: 2027-02-30 is not a day: February 2027 has 28 days; write the date as YYYY-MM-DD, e.g. 2027-01-15 [invalid]\n',
    );
    expect(r.code).toBe(3);
  });

  it('reads a day-first date and gives it back as YYYY-MM-DD', async () => {
    const r = await validate({ 'a.yaml': advertYaml('D-2', 'start_date: 15/01/2027\n') });
    expect(r.stdout).toBe('✖ a.yaml:18:13: start_date: 15/01/2027 is not in the YYYY-MM-DD format: write 2027-01-15 [invalid]\n');
  });

  it('offers both readings of an ambiguous date, and the format for anything else', async () => {
    const r = await validate({ 'a.yaml': advertYaml('D-3', 'start_date: 02/03/2027\n'), 'b.yaml': advertYaml('D-4', 'start_date: next spring\n') });
    expect(r.stdout).toBe(
      '✖ a.yaml:18:13: start_date: 02/03/2027 is not in the YYYY-MM-DD format: write 2027-03-02 for 2 March 2027, or 2027-02-03 for 3 February 2027 [invalid]\n' +
        '✖ b.yaml:18:13: start_date: next spring is not a date in the YYYY-MM-DD format; write the date as YYYY-MM-DD, e.g. 2027-01-15 [invalid]\n',
    );
  });
});

describe('countries', () => {
  it.each([
    ['USA', 'USA is not an ISO 3166-1 alpha-2 country code: write US (United States of America)'],
    ['UK', 'UK is not an ISO 3166-1 alpha-2 country code: write GB (United Kingdom)'],
    ['Norway', 'Norway is not an ISO 3166-1 alpha-2 country code: write NO (Norway)'],
    ['fr', 'fr is not an ISO 3166-1 alpha-2 country code: write FR (France)'],
    ['GBR', 'GBR is not an ISO 3166-1 alpha-2 country code: write GB (United Kingdom)'],
    ['Atlantis', "Atlantis is not an ISO 3166-1 alpha-2 country code: write the country's two-letter code, e.g. NO, FR, US or GB"],
  ])('country: %s', async (written, text) => {
    const r = await validate({ 'a.yaml': withLocation('C-1', `location:\n  country: ${written}\n  city: X\n  state: Y\n`) });
    expect(r.stdout).toBe(`✖ a.yaml:14:12: location.country: ${text} [inclusion]\n`);
    expect(r.code).toBe(3);
  });
  it('says the state will be needed when the code meant requires one', async () => {
    const r = await validate({ 'a.yaml': withLocation('C-2', 'location:\n  country: Mexico\n  city: X\n') });
    expect(r.stdout).toBe(
      '✖ a.yaml:14:12: location.country: Mexico is not an ISO 3166-1 alpha-2 country code: write MX (Mexico), and add state (required for MX) [inclusion]\n',
    );
  });
});

describe('state', () => {
  it.each(['US', 'CA', 'MX'])('says why the state is required for %s', async (country) => {
    const r = await validate({ 'a.yaml': withLocation('S-1', `location:\n  country: ${country}\n  city: X\n`) });
    const others = ['US', 'CA', 'MX'].filter((c) => c !== country).join(', ');
    expect(r.stdout).toBe(`✖ a.yaml:14:3: location.state: is missing: it is required because location.country is ${country} (also for ${others}) [missing]\n`);
  });
});

describe('constant names', () => {
  const config = { '.jobsrc.yaml': 'constants:\n  contract:\n    permanent: 1\n    temporary: 2\n' };

  it('a mistyped name is one error, with the name meant', async () => {
    const r = await validate({ ...config, 'a.yaml': advertYaml('K-1').replace('contract_id: 1', 'contract_id: permanant') });
    expect(r.stdout).toBe('✖ a.yaml:6:14: contract_id: permanant is not a name in constants.contract; did you mean permanent? [inclusion]\n');
    expect(r.stderr).toBe('✖ 1 error: 1 advert in 1 file checked, 1 invalid\n');
  });

  it('lists the names when nothing is close', async () => {
    const r = await validate({ ...config, 'a.yaml': advertYaml('K-2').replace('contract_id: 1', 'contract_id: freelance') });
    expect(r.stdout).toBe('✖ a.yaml:6:14: contract_id: freelance is not a name in constants.contract (permanent, temporary), nor an id [inclusion]\n');
  });

  it('does the same in jobs update', async () => {
    const dir = tempFolder(config);
    const r = await runJobs(['update', 'K-3', '--set', 'contract_id=temporay'], { cwd: dir, env: serviceEnv });
    expect(r.stdout).toBe('✖ --set contract_id: temporay is not a name in constants.contract; did you mean temporary? [inclusion]\n');
    expect(r.code).toBe(3);
  });
});

describe('the reference', () => {
  it('--set reference says the reference is immutable, and sends nothing', async () => {
    const r = await runJobs(['update', 'ACME-1', '--set', 'reference=ACME-2'], { env: serviceEnv });
    expect(r.code).toBe(2);
    expect(r.stderr).toContain('--set reference=ACME-2: the reference is immutable: it names the advert to update and is never sent');
    expect(r.stdout).toBe('');
  });

  it.each(['.', '..'])('refuses the reference %j in an advert, at its line', async (reference) => {
    const r = await validate({ 'a.yaml': advertYaml(`"${reference}"`) });
    expect(r.stdout).toBe(
      `✖ a.yaml:1:12: reference: "${reference}" cannot be a reference: a reference is part of the advert's URL (/jobs/<reference>), where "." and ".." mean folders, so the advert could never be updated, fetched or deleted; choose another reference [invalid]\n`,
    );
    expect(r.code).toBe(3);
  });

  it('refuses . and .. as arguments of update, delete and stats before anything is sent', async () => {
    for (const argv of [
      ['update', '..', '--set', 'title=x'],
      ['delete', '.', '--yes'],
      ['stats', 'A', '..'],
    ]) {
      const r = await runJobs(argv, { env: serviceEnv });
      expect(r.code, argv.join(' ')).toBe(3);
      expect(r.stderr).toMatch(
        /^jobs: no advert can have the reference "\.\.?": a reference is part of the advert's URL \(\/jobs\/<reference>\), where "\." and "\.\." mean folders; nothing was sent\n/,
      );
    }
  });

  it('accepts other odd references: they travel as one path segment', async () => {
    const scope = nock(SERVICE).put('/jobs/a%2Fb%20..').reply(200);
    const r = await runJobs(['update', 'a/b ..', '--set', 'title=x'], { env: serviceEnv });
    expect(r.code).toBe(0);
    scope.done();
    expect((await validate({ 'a.yaml': advertYaml('"a/b .."') })).code).toBe(0);
  });
});

describe('indentation', () => {
  it('a field indented too far is reported at its own line, in plain words', async () => {
    const r = await validate({ 'a.yaml': withLocation('I-1', 'location:\n  country: FR\n    city: Paris\n') });
    expect(r.stdout).toBe(
      '✖ a.yaml:15:5: `city` is indented more than `country` above it (4 spaces, not 2), so YAML reads it as part of the value of `country`; line it up with `country`\n',
    );
    expect(r.stderr).toBe('✖ 1 error: 0 adverts in 1 file checked, 1 file with YAML errors\n');
    expect(r.code).toBe(3);
  });

  it('a field indented less than its siblings is lined up with them', async () => {
    const r = await validate({ 'a.yaml': withLocation('I-2', 'location:\n    country: FR\n  city: Paris\n') });
    expect(r.stdout).toBe(
      '✖ a.yaml:15:3: `city` is indented less than the other fields of `location` (2 spaces, not 4); line it up with `country` (4 spaces)\n',
    );
  });

  it('a field of location written at the top level is one error: it belongs under location', async () => {
    const r = await validate({ 'a.yaml': withLocation('I-3', 'location:\n  country: FR\ncity: Paris\n') });
    expect(r.stdout).toBe(
      '✖ a.yaml:15:7: city: is a field of `location`, not of the advert: indent it under `location`, lined up with `country` (2 spaces) [unknown_field]\n',
    );
    expect(r.stderr).toBe('✖ 1 error: 1 advert in 1 file checked, 1 invalid\n');
  });

  it('a top-level field indented into location belongs to the advert', async () => {
    const r = await validate({ 'a.yaml': advertYaml('I-4').replace('title: Engineer\n', '').replace('  city: Oslo\n', '  city: Oslo\n  title: Engineer\n') });
    expect(r.stdout).toBe(
      '✖ a.yaml:15:10: location.title: is a field of the advert, not of `location`: indent it less, lined up with `reference` (0 spaces) [unknown_field]\n',
    );
  });
});

describe('YAML tags', () => {
  it('!!str keeps a value as text where the schema would read a number', async () => {
    const dir = tempFolder({ 'a.yaml': advertYaml('T-1', 'organization_type: !!str 3\n') });
    const r = await runJobs(['publish', '--dry-run', '--json', 'a.yaml'], { cwd: dir, env: serviceEnv });
    expect(r.code).toBe(0);
    expect(JSON.parse(r.stdout).requests[0].body.organization_type).toBe('3');
  });

  it.each([
    ['!!timestamp 2027-01-15', '!!timestamp'],
    ['!!binary aGk=', '!!binary'],
    ['!custom x', '!custom'],
  ])('refuses %s at its line', async (value, tag) => {
    const r = await validate({ 'a.yaml': advertYaml('T-2', `question: ${value}\n`) });
    expect(r.stdout).toBe(
      `✖ a.yaml:18:11: the YAML tag ${tag} is not supported: values are read as the schema says (a date stays the text YYYY-MM-DD); remove the tag (!!str is accepted, to keep a value as text)\n`,
    );
    expect(r.code).toBe(3);
  });

  it('refuses them in events YAML too', async () => {
    const dir = tempFolder({ 'events.yaml': '- application_id: "1"\n  kind: recruiter_view\n  data: {at: !!timestamp 2027-01-15}\n' });
    const r = await runJobs(['events', 'events.yaml'], { cwd: dir, env: serviceEnv });
    expect(r.code).toBe(3);
    expect(r.stdout + r.stderr).toContain('events.yaml:3:14: the YAML tag !!timestamp is not supported');
  });
});

describe('the summary after a file that cannot be read', () => {
  it('publish says the file has YAML errors, not "0 of 0 adverts invalid" nor that it could not be read', async () => {
    const dir = tempFolder({ 'a.yaml': 'title: [oops\n' });
    const r = await runJobs(['publish', 'a.yaml'], { cwd: dir, env: serviceEnv });
    expect(r.code).toBe(3);
    expect(r.stderr).toBe('jobs: 1 error in the advert files (1 file with YAML errors); nothing was sent\n');
  });

  it('a file that really cannot be read is still said so', async () => {
    const dir = tempFolder({ 'a.yaml': 'title: x\0\n' });
    const r = await runJobs(['publish', 'a.yaml'], { cwd: dir, env: serviceEnv });
    expect(r.code).toBe(3);
    expect(r.stderr).toBe('jobs: 1 error in the advert files (1 file could not be read); nothing was sent\n');
  });
});

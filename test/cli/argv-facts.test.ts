/**
 * What argv says before commander parses it is read with the program's own definitions: an option
 * added to a command (here, in the test) is known to the facts without a second list.
 */
import { describe, expect, it } from 'vitest';
import { readArgv } from '../../src/cli/argv-facts.js';
import { commandNamed, helpTopicAsked, outputFormatIn } from '../../src/cli/program.js';
import { jobsProgram } from '../adopt/cli-shape.js';

describe('argv facts come from the commander definitions', () => {
  it('a global option added to the program takes its value: the word after it is not the command', () => {
    const program = jobsProgram();
    expect(commandNamed(['--tenant', 'publish', 'validate', 'a.yaml'], program)).toBe('publish');
    program.option('--tenant <name>', 'added by this test');
    expect(commandNamed(['--tenant', 'publish', 'validate', 'a.yaml'], program)).toBe('validate');
    expect(helpTopicAsked(['--tenant', 'x', 'help', 'exit-codes'], program)).toBe('exit-codes');
  });

  it('an option added to a command is read with its value, and the format after it is still seen', () => {
    const program = jobsProgram();
    const validate = program.commands.find((c) => c.name() === 'validate')!;
    validate.option('-z, --zone <name>', 'added by this test');
    const facts = readArgv(program, ['validate', '--zone', 'config', '-ojunit', 'a.yaml', '-zb']);
    expect(facts.path).toEqual(['validate']);
    expect(facts.operands).toEqual(['a.yaml']);
    expect(facts.given.get('zone')).toEqual(['config', 'b']);
    expect(outputFormatIn(facts)).toBe('junit');
  });

  it('reads subcommands, --opt=value, -o=value, grouped flags and stops at --', () => {
    const facts = readArgv(jobsProgram(), ['--profile', 'set', 'config', 'set', 'timeout', '--output=sarif', '-qv', '--', '-o', 'json']);
    expect(facts.path).toEqual(['config', 'set']);
    expect(facts.operands).toEqual(['timeout']);
    expect(facts.given.get('profile')).toEqual(['set']);
    expect(facts.given.has('quiet') && facts.given.has('verbose')).toBe(true);
    expect(outputFormatIn(facts)).toBe('sarif');
    expect(outputFormatIn(readArgv(jobsProgram(), ['-o=github', 'validate', '--json']))).toBe('json');
    expect(outputFormatIn(readArgv(jobsProgram(), ['-o', 'xml', 'validate']))).toBe('human');
  });
});

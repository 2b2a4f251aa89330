/** Every command, registered in help order. Each file defines its options and loads its layers lazily. */
import type { CommandSetup } from '../program.js';
import validate from './validate.js';

export const COMMANDS: ReadonlyArray<(setup: CommandSetup) => void> = [validate];

/** Findings about an events file: problems reading it, and fields that break the rules. */
import type { Position } from '../adverts/types.js';
import { describeMessage, parseMessage } from '../errors/messages.js';
import type { Finding } from '../errors/findings.js';

/** The file (or a line of it) cannot be read as events; `code` names the problem (json_syntax, ...). */
export function fileProblem(file: string, position: Position, code: string, text: string): Finding {
  return { kind: 'file', file, line: position.line, column: position.column, path: '', message: code, text, rule: code };
}

/**
 * A field that breaks a rule, in the service's identifiers (`missing`, `inclusion`, ...). `text`
 * replaces the catalogue's sentence when there is more to say (the nearest kind, the JSON error).
 */
export function fieldProblem(file: string, position: Position, path: string, message: string, text?: string): Finding {
  return {
    kind: 'field',
    file,
    line: position.line,
    column: position.column,
    path,
    message,
    text: text ?? describeMessage(message) ?? message,
    rule: parseMessage(message)?.id ?? 'other',
  };
}

/** How input read from stdin (`-`) is named in findings and messages, where a file's name would go. */
export const STDIN_NAME = '<stdin>';

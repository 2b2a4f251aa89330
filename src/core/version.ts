// Replaced at build time with the version from package.json (see scripts/build.mjs).
declare const __JOBS_VERSION__: string | undefined;
export const VERSION: string = typeof __JOBS_VERSION__ === 'string' ? __JOBS_VERSION__ : '0.0.0-dev';

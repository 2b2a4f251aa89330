/** Where a setting's value came from, shown by `jobs doctor` and `jobs config list`. */
export type SettingSource =
  | { kind: 'flag'; name: string }
  | { kind: 'env'; name: string }
  | { kind: 'file'; path: string; key: string }
  | { kind: 'store'; path: string }
  /** The OS keyring, where the credentials file said `jobs login` put the token. */
  | { kind: 'keyring'; account: string }
  | { kind: 'default' }
  | { kind: 'sandbox' };

type SourceKind = SettingSource['kind'];
type FieldsOf<K extends SourceKind> = Exclude<keyof Extract<SettingSource, { kind: K }>, 'kind'>;

/**
 * Every kind of source with its fields, as a value: the output schemas list the same
 * (schemas/output/common.schema.json, `$defs/source`), and test/core/config/types.test.ts holds the
 * two together. The compiler holds this to SettingSource: a kind added there must be added here.
 */
export const SETTING_SOURCE_FIELDS: { readonly [K in SourceKind]: ReadonlyArray<FieldsOf<K>> } = {
  flag: ['name'],
  env: ['name'],
  file: ['path', 'key'],
  store: ['path'],
  keyring: ['account'],
  default: [],
  sandbox: [],
};

export interface Setting<T> {
  value: T;
  source: SettingSource;
}

/** Constant families users may name instead of writing ids. */
export type ConstantFamily = 'contract' | 'salary' | 'industry' | 'department' | 'organization_type';

/** Everything a command needs from configuration, after precedence has been applied. */
export interface ResolvedConfig {
  /** The profile in use, if any. */
  profile: Setting<string | undefined>;
  baseUrl: Setting<string | undefined>;
  /** Undefined when no token was found anywhere; commands that need one raise a ConfigError. */
  token: Setting<string> | undefined;
  authScheme: Setting<string>;
  /** Deep-merged under every advert before validation. */
  defaults: Record<string, unknown>;
  /** name -> id (or value) per family. */
  constants: Partial<Record<ConstantFamily, Record<string, number | string>>>;
  /** `export:` (jobs export, jobs preview): contract name or id -> schema.org employmentType; the careers site's address. */
  export?: { employment_type?: Record<string, string>; site_url?: string };
  concurrency: Setting<number>;
  timeoutMs: Setting<number>;
  retries: Setting<number>;
  /** Let the token travel over plain http:// to a host that is not loopback (off by default). */
  allowInsecureHttp: Setting<boolean>;
  /**
   * A PEM file of extra certificate authorities (JOBS_CA_FILE, or the profile's ca_file in the user
   * config), as an absolute path; `from` says where it was set, in words.
   */
  caFile?: Setting<string> & { from: string };
  /** The proxy variables of the environment (HTTPS_PROXY, NO_PROXY, ...), which the client reads. */
  proxyEnv?: Readonly<Record<string, string>>;
  /** Employer facts the rules by place read (`employer:`): headcount overall and by place. */
  employer?: { employees?: number; employees_in?: Record<string, number> };
  /** The project config file that declares `employer:` (a pull request brings it), when one does. */
  employerFile?: string;
  /** Severity overrides of rules by place (`rules:`), by rule id, with the file that set each (the nearest). */
  ruleLevels?: Record<string, { level: 'error' | 'warning' | 'off'; file: string }>;
  /** The wording checks' settings (`wording:`): rule ids off, words allowed (docs/wording.md). */
  wording?: { off: string[]; allow: string[] };
  /** Config files that were read, nearest first. */
  files: string[];
  /** Warnings to show once (e.g. a world-readable config holding a literal token). */
  warnings: string[];
}

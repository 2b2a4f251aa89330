/**
 * What `jobs init` writes: an advert and a project config, commented so they teach the format.
 * Both are valid as written (a test validates them), so a first `jobs validate` passes and the
 * user changes values rather than fixing syntax. Optional fields are there, commented out.
 */

export function advertTemplate(schemaRef: string, reference: string): string {
  return `# yaml-language-server: $schema=${schemaRef}
# A job advert for the Job Advert Service. Field names are the API's own: this file is the body of
# POST /jobs. Editors with YAML language support (VS Code: Red Hat's YAML extension) complete and
# check the fields as you type, from the schema named on the first line.
#
#   jobs validate <this file>     check it locally; nothing is sent
#   jobs publish <this file>      create it on the service, or update it when the reference exists
#
# Several adverts may share a file: separate them with a line holding only ---.

${advertFields(
  reference,
  `job_description: >
  What the job is: the team, the work, the tools, what a first year looks like.
`,
)}`;
}

/**
 * A Markdown advert (`init --markdown`): the same fields in the front matter, the job description as
 * the body. No schema modeline: editors do not check front matter against a schema (docs/adverts.md).
 */
export function markdownAdvertTemplate(reference: string): string {
  return `---
# A job advert for the Job Advert Service, as Markdown: the fields between the two --- lines are
# YAML (the API's field names); everything below the second --- is the job description, sent as
# written (blank lines around it dropped, one final line break).
#
#   jobs validate <this file>     check it locally; nothing is sent
#   jobs publish <this file>      create it on the service, or update it when the reference exists

${advertFields(reference, '')}---

## The job

What the job is: the team, the work, the tools, what a first year looks like.

## You bring

- What a candidate needs to bring.
`;
}

function advertFields(reference: string, jobDescription: string): string {
  // Each new advert gets its own reference (scaffold/new-reference.ts): publish updates an advert
  // whose reference is taken, so a shared one would make the second advert replace the first.
  return `# Your reference for this advert, unique to it (made from the file's name and a random part):
# keep it, or write your own system's. Immutable once created; two adverts with one reference
# are one advert on the service.
reference: ${reference}
title: Backend Engineer
organization_name: ACME Robotics
company_description: >
  What the company does and what it is like to work there: location, perks, culture.
${jobDescription}
# Ids from the service's constants. With names defined under constants in .jobsrc.yaml you may
# write a name instead (contract_id: permanent).
contract_id: 1
salary_id: 1
salary_text: 50 000 - 60 000 EUR  # shown to candidates as written
industry_id: 1
department_id: 1

seniority: 2                      # minimum years of experience
education: 3                      # years of post high-school education

# Optional fields:
# organization_type: 1
# skills: [Node.js, TypeScript]
# question: Which system that you built are you proudest of, and why?
# start_date: 2027-01-15          # YYYY-MM-DD, a real date
# apply_email: jobs@acme.example  # must be enabled by the service's support first

location:
  country: NO                     # ISO 3166-1 alpha-2 (NO stays the text "NO")
  city: Oslo
  # state: TX                     # required when country is US, CA or MX

recruiter:
  email: hiring@acme.example
  # phone: "+47 22 00 00 00"
  # first_name: Kari
  # last_name: Nordmann
  # organization_name: ACME Recruiting

# The tool's own settings, never sent: the days the advert is up (UTC). jobs sync creates it from
# opens on and deletes it after closes; run the sync daily (the CI recipes do).
# jobs:
#   opens: 2027-01-01
#   closes: 2027-01-31
`;
}

/** What the user chose on the command line (`--base-url`, `--profile`): the only settings written active. */
export interface ConfigChoices {
  baseUrl?: string;
  profile?: string;
}

/** A YAML plain scalar when it reads back as itself, else a double-quoted one. */
const yamlText = (text: string) => (/^[\w./:@-]+$/.test(text) && !/^[-?:]/.test(text) ? text : JSON.stringify(text));

/**
 * The project config. Placeholders (an organisation name, constant ids, a service URL) are there
 * commented out, to show the format: an active placeholder default would make an incomplete advert
 * valid and publish it under a made-up name. Only what the user chose is active; `concurrency`
 * (at its default value) keeps the file from being empty, which the search would pass over.
 */
export function configTemplate(schemaRef: string, choices: ConfigChoices = {}): string {
  const profile = choices.profile ?? 'prod';
  const chosen = choices.baseUrl !== undefined;
  const profiles = chosen
    ? `# The profile used when neither --profile nor JOBS_PROFILE names one.
profile: ${yamlText(profile)}

profiles:
  ${yamlText(profile)}:
    base_url: ${yamlText(choices.baseUrl!)}
    # Never write a token here: use \`jobs login\`, JOBS_TOKEN, or a reference to the environment:
    # token: \${JOBS_PROD_TOKEN}
  # staging:
  #   base_url: https://staging.jobs.example.com/api
  #   auth_scheme: Bearer         # the word before the token in the Authorization header`
    : `# The profile used when neither --profile nor JOBS_PROFILE names one, and the service's URL
# (\`jobs init --config --base-url <url>\` writes these for you):
# profile: prod
#
# profiles:
#   prod:
#     base_url: https://jobs.example.com/api
#     # Never write a token here: use \`jobs login\`, JOBS_TOKEN, or a reference to the environment:
#     # token: \${JOBS_PROD_TOKEN}
#   staging:
#     base_url: https://staging.jobs.example.com/api
#     auth_scheme: Bearer         # the word before the token in the Authorization header`;
  return `# yaml-language-server: $schema=${schemaRef}
# Settings of the jobs CLI for this project; jobs finds the nearest .jobsrc.yaml from the working
# folder upwards. Flags and environment variables (JOBS_BASE_URL, JOBS_TOKEN, JOBS_PROFILE) win
# over this file; \`jobs config list\` shows every setting in effect and where it comes from.
# \${VAR} in a value reads the environment variable VAR, if you allow it by name: this file comes
# with every checkout, so it reads only the variables listed in your user config
# (allow_env: [JOBS_PROD_TOKEN]) or given with --allow-env JOBS_PROD_TOKEN. Lines starting with #
# are examples: remove the # to use one.

${profiles}

# Merged under every advert before it is validated and sent; the advert's own values win.
# defaults:
#   organization_name: ACME Robotics
#   company_description: Warehouse robots in Oslo.
#   recruiter:
#     email: hiring@acme.example

# Names you may write in adverts instead of the service's ids (contract_id: permanent). The ids
# are the service's: ask its support for them.
# constants:
#   contract:
#     permanent: 1
#     temporary: 2
#   salary: { band_1: 1, band_2: 2 }
#   industry: { robotics: 12 }
#   department: { engineering: 4 }

concurrency: 4                    # requests at once in publish, sync and events (4 is the default)
# timeout: 30s                    # per request
# retries: 5                      # on 429, 5xx and network failures
`;
}

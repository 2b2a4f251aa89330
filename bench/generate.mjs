// Generates N valid advert files for benchmarks (deterministic; no randomness).
// Usage: node bench/generate.mjs <dir> <count> [simple|realistic|bullets]
import { mkdirSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';

export function advertYaml(i) {
  return `reference: BENCH-${String(i).padStart(6, '0')}
title: Software Engineer ${i}
organization_name: Bench Corp
organization_type: 1
company_description: >
  Bench Corp builds benchmarking tools for people who like numbers. Flexible hours
  and a quiet office.
job_description: >
  Measure things carefully, write them down, and keep ratios honest.
contract_id: ${1 + (i % 3)}
salary_id: ${1 + (i % 5)}
salary_text: "${40000 + (i % 50) * 1000} EUR"
industry_id: ${1 + (i % 7)}
department_id: ${1 + (i % 4)}
seniority: ${i % 10}
education: ${i % 6}
skills:
  - TypeScript
  - Node.js
  - Statistics
question: What did you measure last?
location:
  country: FR
  city: Lyon
recruiter:
  email: bench${i}@example.com
  first_name: Ada
  last_name: Lovelace
`;
}

const CITIES = [
  ['FR', 'Lyon'],
  ['DE', 'München'],
  ['NO', 'Tromsø'],
  ['ES', 'A Coruña'],
  ['PL', 'Łódź'],
  ['JP', '東京'],
  ['SE', 'Göteborg'],
];
const NAMES = [
  ['Zoë', 'Müller'],
  ['José', 'Núñez'],
  ['Åsa', 'Øberg'],
  ['Chloé', "O'Brien"],
  ['Søren', 'Kierkegård'],
  ['Ngozi', 'Okonjo-Iweala'],
];
const SKILLS = ['TypeScript', 'Node.js', 'PostgreSQL', 'Kubernetes', 'C++', 'Go', 'Rust', 'SQL', 'Terraform', 'Kafka', 'React', 'GraphQL'];
const SENTENCES = [
  'We build tools that people rely on every day, and we care about getting the details right.',
  'Our team works across three time zones — mostly asynchronously, with one shared hour a day.',
  "You'll own services end to end: design, code review, deployment, on-call and the post-mortem.",
  'Nous travaillons en français et en anglais ; la maîtrise des deux est un plus, pas une obligation.',
  'Remote-friendly: two days a week in the office (bike garage, showers, very good coffee ☕).',
  'Salary bands are public inside the company and reviewed every year, with equity on top.',
  'We measure what we ship: latency budgets, error rates, and how often we wake someone at night.',
];

const pick = (list, i, k = 0) => list[(i * 7 + k * 13) % list.length];
const paragraph = (i, k, n) => Array.from({ length: n }, (_, j) => pick(SENTENCES, i, k + j)).join(' ');
/** Folds a paragraph into lines of about 90 characters, indented for a block scalar. */
const wrap = (text, indent) => text.replace(/(.{1,88})(?: |$)/g, `${indent}$1\n`);

/**
 * A realistic advert: 1–3 KB, comments, unicode, quoted values, literal and folded block scalars
 * with blank lines and, with `bullets`, a bulleted (more-indented) list inside a `>` block.
 */
export function realisticAdvertYaml(i, { bullets = false } = {}) {
  // Every city in turn: pick() strides by 7, which is the list's length, and gave every advert Lyon (FR,
  // a language the wording checks do not read, so the wording bench measured nothing).
  const [country, city] = CITIES[i % CITIES.length];
  const [first, last] = pick(NAMES, i, 1);
  const list = bullets
    ? `\n    - ${pick(SKILLS, i)} in production, at scale\n    - code review that teaches, not gatekeeps\n    - on-call one week in six (paid)\n\n`
    : '\n';
  return `# yaml-language-server: $schema=../schemas/advert.schema.json
# Advert ${i} — generated for benchmarks; edit freely.
reference: "REAL-${String(i).padStart(7, '0')}"
title: Senior ${pick(SKILLS, i, 2)} Engineer – ${city} (${i % 2 ? 'hybrid' : 'remote'})
organization_name: 'Nordlys Systèmes & Co'
organization_type: ${1 + (i % 3)}
company_description: |
${wrap(paragraph(i, 0, 3 + (i % 3)), '  ')}
${wrap(paragraph(i, 3, 2), '  ')}job_description: >
${wrap(paragraph(i, 1, 2 + (i % 4)), '  ')}${list}${wrap(paragraph(i, 5, 2 + (i % 2)), '  ')}
contract_id: ${1 + (i % 3)}   # permanent, fixed-term, freelance
salary_id: ${1 + (i % 5)}
salary_text: "${55 + (i % 40)} 000 – ${70 + (i % 40)} 000 € / year"
industry_id: ${1 + (i % 7)}
department_id: ${1 + (i % 4)}
seniority: ${i % 10}
education: ${i % 6}

# What we look for (in order of importance)
skills:
  - ${pick(SKILLS, i, 3)}
  - ${pick(SKILLS, i, 4)}
  - "${pick(SKILLS, i, 5)}"
question: Which system that you built are you proudest of, and why?
start_date: "2027-0${1 + (i % 9)}-15"  # quoted: some YAML 1.1 readers would make it a date
location:
  country: ${country}
  city: ${city}   # office address on request
recruiter:
  email: recruiting+${i}@nordlys.example
  first_name: ${first}
  last_name: "${last}"
`;
}

export function generateAdverts(dir, count, { realistic = false, bullets = false } = {}) {
  rmSync(dir, { recursive: true, force: true });
  mkdirSync(dir, { recursive: true });
  for (let i = 0; i < count; i++)
    writeFileSync(join(dir, `advert-${String(i).padStart(7, '0')}.yaml`), realistic ? realisticAdvertYaml(i, { bullets }) : advertYaml(i));
  return dir;
}

if (import.meta.url === `file://${process.argv[1]}`) {
  const mode = process.argv[4] ?? 'simple';
  generateAdverts(process.argv[2], Number(process.argv[3] ?? 1000), { realistic: mode !== 'simple', bullets: mode === 'bullets' });
}

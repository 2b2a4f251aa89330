// Generates N valid advert files for benchmarks (deterministic; no randomness).
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

export function generateAdverts(dir, count) {
  rmSync(dir, { recursive: true, force: true });
  mkdirSync(dir, { recursive: true });
  for (let i = 0; i < count; i++) writeFileSync(join(dir, `advert-${String(i).padStart(6, '0')}.yaml`), advertYaml(i));
  return dir;
}

if (import.meta.url === `file://${process.argv[1]}`) generateAdverts(process.argv[2], Number(process.argv[3] ?? 1000));

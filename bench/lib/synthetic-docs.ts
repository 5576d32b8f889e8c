/**
 * A synthetic but realistic project of any size, seeded: every document kind in proportions a busy product
 * team has (commits and pull requests per release, tickets with fix versions, error issues per service,
 * incidents linking issues and runbooks, a sales library), plus one invocation per skill whose answer size
 * stays about the same at every project size (the last two releases, one incident, the whole sales library
 * capped by the plan's limits), so growth measures the store, not a bigger answer.
 */
import type {
  CommitDocument,
  ErrorIssueDocument,
  EvidenceDocument,
  IncidentDocument,
  ProjectDocument,
  PullRequestDocument,
  ReleaseDocument,
  RunbookDocument,
  TicketDocument,
} from '../../src/skills/documents';
import type { SkillCase } from './demo';
import { seeded, type Rng } from './random';

const SERVICES = [
  'checkout-api',
  'payments-worker',
  'search-service',
  'orders-api',
  'inventory-sync',
  'auth-gateway',
  'notifications',
  'reporting',
  'catalog-api',
  'shipping-rates',
  'loyalty',
  'admin-ui',
  'storefront',
  'webhooks',
  'billing',
  'media-cdn',
  'recommendations',
  'pricing',
  'tax-service',
  'audit-log',
];
const MODULES = ['orders', 'checkout', 'search', 'auth', 'reports', 'inventory', 'admin', 'api', 'ui', 'payments'];
const COMMIT_TYPES = ['feat', 'fix', 'fix', 'chore', 'refactor', 'perf', 'docs', 'test', 'ci'];
const TICKET_TYPES = ['bug', 'feature', 'story', 'improvement', 'task', 'chore'];
const INDUSTRIES = ['Retail', 'Healthcare', 'Logistics', 'Financial services', 'Manufacturing', 'Education'];
const COMPANY_A = [
  'Northwind',
  'Cedar',
  'Harbor',
  'Fernhill',
  'Bluewater',
  'Summit',
  'Redwood',
  'Silverline',
  'Oakridge',
  'Brightpath',
  'Ironbridge',
  'Maple',
];
const COMPANY_B = [
  'Grocers',
  'Clinics',
  'Freight',
  'Outfitters',
  'Bank',
  'Supply',
  'Market',
  'Labs',
  'Logistics',
  'Academy',
  'Foods',
  'Health',
];
const VERBS = ['add', 'keep', 'fix', 'speed up', 'retry', 'cache', 'export', 'paginate', 'validate', 'log', 'batch', 'index'];
const NOUNS = [
  'order list',
  'checkout page',
  'saved searches',
  'session refresh',
  'CSV export',
  'bulk editing',
  'audit trail',
  'payment capture',
  'inventory sync',
  'price rules',
  'login form',
  'report builder',
  'shipping quotes',
  'webhook retries',
];
const PAINS = [
  'checkout pages slow down at seasonal peaks',
  'store managers build order reports by hand in spreadsheets',
  'staff share logins across stores',
  'inventory counts drift between systems',
  'supply orders are re-keyed from paper forms',
  'compliance needs an audit trail of every change',
  'carriers quote shipping late',
  'customers cannot find past orders',
];
const OUTCOMES = [
  'checkout abandonment down 23%',
  'weekly reporting time cut by 10 hours',
  'no shared logins after single sign-on',
  'stock accuracy up to 99.2%',
  'same-day supply orders',
  'audit findings closed in one quarter',
];
const YEAR_MS = 365 * 86_400_000;
/** The generated project's "today"; every timestamp is before it. */
export const SYNTHETIC_NOW = '2025-06-01T09:00:00.000Z';
const END = Date.parse(SYNTHETIC_NOW);

const iso = (ms: number) => new Date(Math.round(ms / 1000) * 1000).toISOString();
const hex = (rng: Rng, n: number) => Array.from({ length: n }, () => '0123456789abcdef'[rng.int(0, 15)]).join('');
const sentence = (rng: Rng) => {
  const verb = rng.pick(VERBS);
  return `${verb[0]!.toUpperCase()}${verb.slice(1)} the ${rng.pick(NOUNS)} in ${rng.pick(SERVICES)}, because ${rng.pick(PAINS)}.`;
};
const paragraph = (rng: Rng, sentences: number) => Array.from({ length: sentences }, () => sentence(rng)).join(' ');

export interface SyntheticProject {
  documents: ProjectDocument[];
  /** One invocation per skill, answerable from these documents. */
  cases: SkillCase[];
}

export function syntheticProject(size: number, seed = 42): SyntheticProject {
  const rng = seeded(seed);
  const n = (share: number, min = 1) => Math.max(min, Math.round(size * share));
  const counts = {
    release: n(0.004, 5),
    pr: n(0.15),
    ticket: n(0.15),
    issue: n(0.14),
    note: n(0.05),
    win: n(0.03),
    study: n(0.02),
    incident: n(0.01, 2),
    runbook: n(0.005, SERVICES.length),
  };
  const commitCount = Math.max(1, size - Object.values(counts).reduce((a, b) => a + b, 0));
  const span = 4 * YEAR_MS;
  const start = END - span;

  const releases: ReleaseDocument[] = Array.from({ length: counts.release }, (_, i) => {
    const version = `${1 + Math.floor(i / 50)}.${Math.floor(i / 10) % 5}.${i % 10}`;
    const at = iso(start + ((i + 1) * span) / (counts.release + 1));
    return {
      kind: 'release',
      externalId: `v${version}`,
      title: `v${version}`,
      body: paragraph(rng, 1),
      url: `https://git.example.com/bench/releases/tag/v${version}`,
      createdAt: at,
      version,
      tag: `v${version}`,
      sha: hex(rng, 40),
      releasedAt: at,
    };
  });
  const releaseOf = (i: number, count: number) => releases[Math.min(releases.length - 1, Math.floor((i * releases.length) / count))]!;
  const before = (r: ReleaseDocument, maxDays: number) => iso(Date.parse(r.releasedAt) - rng.int(1, maxDays * 24) * 3_600_000);

  const commits: CommitDocument[] = Array.from({ length: commitCount }, (_, i) => {
    const r = releaseOf(i, commitCount);
    const at = before(r, 20);
    const sha = hex(rng, 40);
    const type = rng.pick(COMMIT_TYPES);
    return {
      kind: 'commit',
      externalId: sha,
      title: `${type}(${rng.pick(MODULES)}): ${rng.pick(VERBS)} ${rng.pick(NOUNS)}`,
      body: rng.chance(0.4) ? paragraph(rng, 2) : '',
      url: `https://git.example.com/bench/commit/${sha}`,
      createdAt: at,
      sha,
      author: `dev${rng.int(1, 40)}`,
      committedAt: at,
      version: r.version,
      ...(rng.chance(0.6) ? { prNumber: rng.int(1, counts.pr) } : {}),
      ticketKeys: rng.chance(0.5) ? [`BEN-${rng.int(1, counts.ticket)}`] : [],
    };
  });
  const prs: PullRequestDocument[] = Array.from({ length: counts.pr }, (_, i) => {
    const r = releaseOf(i, counts.pr);
    const at = before(r, 20);
    return {
      kind: 'pull_request',
      externalId: String(i + 1),
      title: `${rng.pick(COMMIT_TYPES)}: ${rng.pick(VERBS)} ${rng.pick(NOUNS)}`,
      body: paragraph(rng, 2),
      url: `https://git.example.com/bench/pull/${i + 1}`,
      createdAt: at,
      number: i + 1,
      labels: [rng.pick(['feature', 'bug', 'chore', 'dependencies'])],
      author: `dev${rng.int(1, 40)}`,
      mergedAt: at,
      mergeCommitSha: hex(rng, 40),
      version: r.version,
      ticketKeys: [`BEN-${rng.int(1, counts.ticket)}`],
    };
  });
  const tickets: TicketDocument[] = Array.from({ length: counts.ticket }, (_, i) => {
    const r = releaseOf(i, counts.ticket);
    const done = rng.chance(0.9);
    return {
      kind: 'ticket',
      externalId: `BEN-${i + 1}`,
      title: `${rng.pick(VERBS)} ${rng.pick(NOUNS)}`,
      body: paragraph(rng, 2),
      url: `https://tracker.example.com/browse/BEN-${i + 1}`,
      createdAt: before(r, 40),
      key: `BEN-${i + 1}`,
      type: rng.pick(TICKET_TYPES),
      status: done ? 'Done' : 'In Progress',
      ...(done ? { fixVersion: r.version, resolvedAt: before(r, 2) } : {}),
      labels: [],
    };
  });
  const issues: ErrorIssueDocument[] = Array.from({ length: counts.issue }, (_, i) => {
    const first = start + rng.next() * span;
    return {
      kind: 'error_issue',
      externalId: `ERR-${i + 1}`,
      title: `${rng.pick(['TimeoutError', 'TypeError', 'GatewayTimeoutError', 'ValidationError', 'PoolExhaustedError'])}: ${rng.pick(NOUNS)} failed`,
      body: '',
      url: `https://errors.example.com/issues/${i + 1}`,
      createdAt: iso(first),
      issueId: `ERR-${i + 1}`,
      culprit: `${rng.pick(MODULES)}/handler.ts in ${rng.pick(VERBS).replace(' ', '')}`,
      level: rng.pick(['error', 'warning', 'fatal']),
      firstSeen: iso(first),
      lastSeen: iso(first + rng.int(1, 72) * 3_600_000),
      count: rng.int(1, 50_000),
      userCount: rng.int(1, 5_000),
      release: rng.pick(releases).version,
      service: SERVICES[i % SERVICES.length]!,
    };
  });
  const runbooks: RunbookDocument[] = Array.from({ length: counts.runbook }, (_, i) => ({
    kind: 'runbook',
    externalId: `rb-${i + 1}`,
    title: `Recover ${SERVICES[i % SERVICES.length]}`,
    body: '',
    url: `https://wiki.example.com/runbooks/rb-${i + 1}`,
    createdAt: iso(start + rng.next() * span),
    service: SERVICES[i % SERVICES.length]!,
    steps: Array.from({ length: rng.int(3, 5) }, () => sentence(rng)),
  }));
  const incidents: IncidentDocument[] = Array.from({ length: counts.incident }, (_, i) => {
    const started = start + rng.next() * (span - YEAR_MS / 12);
    const services = rng.sample(SERVICES, rng.int(1, 2));
    const linked = rng
      .sample(
        issues.filter((d) => services.includes(d.service!)),
        rng.int(2, 4),
      )
      .map((d) => d.issueId);
    const books = runbooks
      .filter((d) => services.includes(d.service))
      .slice(0, 2)
      .map((d) => d.externalId);
    return {
      kind: 'incident',
      externalId: `INC-${2000 + i}`,
      title: `${services[0]} degraded: ${rng.pick(NOUNS)} failing`,
      body: `Impact: ${paragraph(rng, 2)}\n\nRoot cause: ${paragraph(rng, 2)}\n\nResolution: ${paragraph(rng, 1)}`,
      url: `https://oncall.example.com/incidents/INC-${2000 + i}`,
      createdAt: iso(started + 1_200_000),
      incidentId: `INC-${2000 + i}`,
      severity: rng.pick(['SEV-1', 'SEV-2', 'SEV-3']),
      status: 'resolved',
      startedAt: iso(started),
      detectedAt: iso(started + 600_000),
      mitigatedAt: iso(started + 3_000_000),
      resolvedAt: iso(started + 7_200_000),
      services,
      errorIssueIds: linked,
      runbookIds: books,
      timeline: [
        { at: iso(started + 600_000), text: 'Alert fired.' },
        { at: iso(started + 1_800_000), text: sentence(rng) },
        { at: iso(started + 3_000_000), text: 'Mitigated by rollback.' },
      ],
    };
  });
  const evidence = <K extends 'win' | 'case_study' | 'sales_note'>(kind: K, count: number, prefix: string): EvidenceDocument<K>[] =>
    Array.from({ length: count }, (_, i) => {
      const customer = `${rng.pick(COMPANY_A)} ${rng.pick(COMPANY_B)} ${i + 1}`;
      const date = iso(start + rng.next() * span);
      return {
        kind,
        externalId: `${prefix}-${i + 1}`,
        title: `${customer}: ${rng.pick(OUTCOMES)}`,
        body: `${customer} told us ${rng.pick(PAINS)} and ${rng.pick(PAINS)}. ${paragraph(rng, 2)}`,
        url: `https://crm.example.com/records/${prefix}-${i + 1}`,
        createdAt: date,
        customer,
        industry: rng.pick(INDUSTRIES),
        date,
        metrics: [`${rng.pick(NOUNS)}: -${rng.int(5, 60)}%`],
        outcome: rng.pick(OUTCOMES),
      } as EvidenceDocument<K>;
    });

  const documents: ProjectDocument[] = [
    ...releases,
    ...commits,
    ...prs,
    ...tickets,
    ...issues,
    ...runbooks,
    ...incidents,
    ...evidence('win', counts.win, 'win'),
    ...evidence('case_study', counts.study, 'cs'),
    ...evidence('sales_note', counts.note, 'sn'),
  ];
  const cases: SkillCase[] = [
    {
      skill: 'release_notes_composer',
      inputs: { fromVersion: releases[releases.length - 3]!.version, toVersion: releases[releases.length - 1]!.version, tone: 'neutral' },
    },
    {
      skill: 'proposal_writer',
      inputs: { customerName: 'Harbor & Vine Market', industry: 'Retail', format: 'one-pager', painPoints: PAINS.slice(0, 3) },
    },
    { skill: 'incident_rca', inputs: { incidentId: incidents[Math.floor(incidents.length / 2)]!.incidentId, severity: 'SEV-1' } },
  ];
  return { documents, cases };
}

/**
 * The free-text body of an incident record, read as labelled paragraphs ("Impact: ...", "Root cause: ...",
 * "Resolution: ...", "Notes: ..."), the way post-incident templates write them. Unlabelled text counts as notes.
 */

export interface IncidentNarrative {
  impact?: string;
  rootCause?: string;
  resolution?: string;
  notes: string[];
}

const LABELS: [RegExp, keyof Omit<IncidentNarrative, 'notes'> | 'notes'][] = [
  [/^(customer )?impact$/i, 'impact'],
  [/^(root cause|cause)$/i, 'rootCause'],
  [/^(resolution|fix|remediation)$/i, 'resolution'],
  [/^(notes?|contributing factors?|observations?)$/i, 'notes'],
];

export function readNarrative(body: string): IncidentNarrative {
  const out: IncidentNarrative = { notes: [] };
  for (const paragraph of body.split(/\n\s*\n/)) {
    const text = paragraph.replace(/\s+/g, ' ').trim();
    if (!text) continue;
    const m = /^([A-Za-z][A-Za-z ]{1,30}):\s*(.+)$/.exec(text);
    const field = m ? LABELS.find(([re]) => re.test(m[1].trim()))?.[1] : undefined;
    if (!m || !field || field === 'notes') out.notes.push(m && field ? m[2] : text);
    else out[field] = out[field] ? `${out[field]} ${m[2]}` : m[2];
  }
  return out;
}

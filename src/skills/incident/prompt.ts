import type { IncidentRcaInputs } from './definition';

/** What the model must do for an RCA, beyond the rules every skill shares. */
export function incidentInstructions(inputs: IncidentRcaInputs): string {
  return [
    `You are writing a blameless root-cause analysis of incident ${JSON.stringify(inputs.incidentId)} at ${inputs.severity} depth.`,
    'Keep the timeline table rows, their order and times, and the computed durations (time to detect, mitigate, resolve) exactly as in the draft.',
    'Anything the incident record does not state as the cause stays labelled "Hypothesis". Keep error counts, releases and services exactly.',
    'Keep the follow-up actions table: every action keeps its type (prevent, detect or mitigate) and an empty Owner cell.',
    inputs.severity === 'SEV-1'
      ? 'SEV-1: every section in full; the "Customer-facing summary" is plain language without internal names, code or blame.'
      : inputs.severity === 'SEV-3'
        ? 'SEV-3: keep it short.'
        : 'SEV-2: full sections, concise.',
  ].join('\n');
}

/**
 * The header of a command's results document that comes from its target: the target as results name it
 * (name, base URL, whether it is the embedded reference server) and the secret values the document must
 * never contain (buildResults scrubs them). One way for every command that writes results.
 */
import type { Target } from '../target/schema.js';
import type { BuildResultsInput } from '../results/build.js';

/** The target part of BuildResultsInput for a run against `target`. */
export function resultsHeader(target: Target): Pick<BuildResultsInput, 'target' | 'secrets'> & { secrets: string[] } {
  return {
    target: { name: target.name, baseUrl: target.baseUrl, embedded: target.source === 'embedded' },
    secrets: Object.values(target.secrets).filter((s): s is string => typeof s === 'string'),
  };
}

/** Queries over the demo corpus's verticals, cycled by every benchmark. */
export const BENCH_QUERIES = [
  'sourdough starter hydration',
  'cast iron skillet seasoning',
  'rust borrow checker lifetimes',
  'kubernetes pod autoscaling',
  'interest rate inflation central bank',
  'bond yield curve',
  'vaccine trial efficacy',
  'blood pressure medication',
  'exoplanet atmosphere spectra',
  'quantum error correction',
  'marathon training plan',
  'transfer window signing',
  'patagonia hiking trails',
  'carry-on baggage rules',
  'copyright fair use',
  'antitrust merger review',
  'student loan forgiveness',
  'early childhood literacy',
  'wildfire evacuation orders',
  'transit strike negotiations',
];

export function percentile(sortedMs: number[], fraction: number): number {
  if (sortedMs.length === 0) return 0;
  const index = Math.min(sortedMs.length - 1, Math.floor(fraction * sortedMs.length));
  return sortedMs[index];
}

/** One section of `npm run bench:signals`: a signal scored on its labelled data beside a baseline. */
export interface SignalSection {
  /** The signal's name as SPEC writes it (`published_at`). */
  name: string;
  /** Markdown lines: what was measured, on which half, beside what. */
  run(): Promise<string[]>;
}

export function percent(value: number): string {
  return Number.isFinite(value) ? value.toFixed(3) : '-';
}

export function table(header: readonly string[], rows: ReadonlyArray<ReadonlyArray<string | number>>): string[] {
  return [`| ${header.join(' | ')} |`, `|${header.map(() => '---').join('|')}|`, ...rows.map((row) => `| ${row.join(' | ')} |`)];
}

/** Tables: plain text per set on the console, one markdown table for a note. */
export interface Row {
  set: string;
  engine: string;
  mode: string;
  analyser: string;
  ndcg10: number;
  recall100: number;
  recall100Grade2: number;
  msPerQuery: number;
  buildSeconds: number;
  judgedQueries: number;
  judgedQueriesGrade2: number;
  note?: string;
}

const f3 = (value: number) => value.toFixed(3);
const fms = (value: number) => value.toFixed(2);
const fs = (value: number) => value.toFixed(1);

export function label(row: Row): string {
  return row.mode ? `${row.engine} / ${row.mode}` : `${row.engine} (${row.analyser})`;
}

export function textTable(rows: readonly Row[]): string {
  const header = ['engine / mode', 'nDCG@10', 'recall@100', 'ms/query', 'build s'];
  const body = rows.map((row) => [label(row) + (row.note ? ` *` : ''), f3(row.ndcg10), f3(row.recall100), fms(row.msPerQuery), fs(row.buildSeconds)]);
  const widths = header.map((cell, column) => Math.max(cell.length, ...body.map((line) => line[column].length)));
  const format = (line: string[]) => line.map((cell, column) => (column === 0 ? cell.padEnd(widths[column]) : cell.padStart(widths[column]))).join('  ');
  return [format(header), widths.map((width) => '-'.repeat(width)).join('  '), ...body.map(format)].join('\n');
}

export function markdownTable(rows: readonly Row[]): string {
  const lines = [
    '| set | engine / mode | nDCG@10 | recall@100 | ms/query | build s |',
    '|---|---|---:|---:|---:|---:|',
  ];
  for (const row of rows) {
    lines.push(`| ${row.set} | ${label(row)}${row.note ? ` (${row.note})` : ''} | ${f3(row.ndcg10)} | ${f3(row.recall100)} | ${fms(row.msPerQuery)} | ${fs(row.buildSeconds)} |`);
  }
  return lines.join('\n');
}

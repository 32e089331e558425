/** What an ingest run reports while it runs and when it ends, and how the CLI prints the end. */

/** Kinds of damaged crawl input, each counted: the record (or member) is skipped, the rest ingests. */
export type DamageKind = 'truncated' | 'corrupt_gzip' | 'garbage' | 'bad_header' | 'wrong_length' | 'too_large' | 'broken_stream' | 'extraction_failed';

/** The kind of a damage report, from its reason (gzip-members.ts, warc-parser.ts, input-reader.ts word them). */
export function damageKind(reason: string): DamageKind {
  if (/^unreadable .* stream/.test(reason)) return 'broken_stream';
  if (/^truncated/.test(reason)) return 'truncated';
  if (/^not a gzip member/.test(reason)) return 'garbage';
  if (/gzip/.test(reason)) return 'corrupt_gzip';
  if (/^bad header/.test(reason)) return 'bad_header';
  if (/^wrong Content-Length/.test(reason)) return 'wrong_length';
  if (/larger than/.test(reason)) return 'too_large';
  return 'extraction_failed';
}

/** What crawl files (WARC, WET) gave. */
export interface CrawlCounts {
  /** WARC records read whole (damaged ones are not records). */
  records: number;
  /** Records that became page records. */
  pages: number;
  /** Records skipped, by kind (request, metadata, revisit, status, not_html, ...). */
  skipped: Partial<Record<string, number>>;
  /** Damaged input skipped, by kind. */
  damaged: Partial<Record<DamageKind, number>>;
  /** Pages past an extraction limit (extract/settings.ts, README "Limits"): extracted the cheaper way, each reported with its offset. */
  pastLimits: number;
}

export interface IngestProgress {
  /** The file being read. */
  file: string;
  /** Bytes read so far, over all files. */
  bytesRead: number;
  /** Size of all readable files together. */
  bytesTotal: number;
  lines: number;
  /** Passages handed to the engine so far (added or skipped as already present). */
  passages: number;
  malformed: number;
  elapsedSeconds: number;
  passagesPerSecond: number;
}

export interface IngestSummary {
  /** Files read to the end. */
  files: number;
  /** Files that could not be read (the CLI then exits 1). */
  unreadableFiles: string[];
  /** Non-blank lines read. */
  lines: number;
  /** Page records (split into passages) taken in. */
  pages: number;
  /** Passage records (`id` given) taken in. */
  passageRecords: number;
  passagesAdded: number;
  /** Passages whose id the index already held. */
  passagesSkipped: number;
  malformed: number;
  /** Removal lines applied. */
  removals: number;
  /** Pages replaced by a re-crawl of their URL with new content. */
  superseded: number;
  /** Records older than what the index holds for their URL (or repeating a recorded removal): left out. */
  outdated: number;
  /** Pages left out as redundant copies of a page the index holds at another URL. */
  redundant: number;
  /** Admitted pages whose hidden text raised hidden_text (recorded in DATA_DIR/hidden-text.jsonl). */
  pagesWithHiddenText: number;
  crawl: CrawlCounts;
  /** Passages deleted by removals and re-crawls. */
  passagesDeleted: number;
  /** Indexed passages rewritten because their story gained hosts. */
  passagesRewritten: number;
  shards: number;
  /** Until the last commit: every passage searchable by keyword. */
  elapsedSeconds: number;
  /** (added + skipped) per second until the last commit. */
  passagesPerSecond: number;
  /**
   * Vector records the run's end merged into the HNSW graphs (the rest were merged behind the
   * run), and the seconds from the start until every vector was in a graph. Null when the
   * vectors come from a model: the service's background embedder makes them after ingest.
   */
  vectorsMergedAtEnd: number | null;
  fullyIndexedSeconds: number | null;
}

/** The closing summary, one `name: value` line each, for stdout. */
export function formatSummary(summary: IngestSummary): string {
  const rows: Array<[string, string | number]> = [
    ['files', summary.files],
    ['lines', summary.lines],
    ['pages', summary.pages],
    ['passage records', summary.passageRecords],
    ['passages added', summary.passagesAdded],
    ['passages skipped (already present)', summary.passagesSkipped],
    ['malformed lines', summary.malformed],
    ['removals', summary.removals],
    ['superseded', summary.superseded],
    ['outdated records (older than the index)', summary.outdated],
    ['redundant copies (not admitted)', summary.redundant],
    ['passages deleted', summary.passagesDeleted],
    ['passages rewritten (story gained hosts)', summary.passagesRewritten],
    ['shards', summary.shards],
    ['elapsed seconds', summary.elapsedSeconds.toFixed(1)],
    ['passages per second', Math.round(summary.passagesPerSecond)],
    ['vectors merged into the graph at the end', summary.vectorsMergedAtEnd ?? 'none (made by the service\'s background embedder)'],
    ['fully indexed after seconds', summary.fullyIndexedSeconds?.toFixed(1) ?? 'when the background embedder is done'],
  ];
  if (summary.crawl.records > 0 || Object.keys(summary.crawl.damaged).length > 0) {
    const at = rows.findIndex(([name]) => name === 'removals');
    const crawlRows: Array<[string, string | number]> = [
      ['crawl records', summary.crawl.records],
      ['crawl pages', summary.crawl.pages],
      ...Object.entries(summary.crawl.skipped).map(([kind, count]): [string, number] => [`skipped ${kind.replace('_', '-')}`, count ?? 0]),
      ...Object.entries(summary.crawl.damaged).map(([kind, count]): [string, number] => [`damaged ${kind.replace('_', '-')}`, count ?? 0]),
      ['pages with hidden text', summary.pagesWithHiddenText],
    ];
    if (summary.crawl.pastLimits > 0) crawlRows.push(['pages past extraction limits', summary.crawl.pastLimits]);
    rows.splice(at, 0, ...crawlRows);
  }
  if (summary.unreadableFiles.length > 0) rows.push(['unreadable files', summary.unreadableFiles.join(', ')]);
  const width = Math.max(...rows.map(([name]) => name.length)) + 1;
  return rows.map(([name, value]) => `${`${name}:`.padEnd(width)} ${value}`).join('\n');
}

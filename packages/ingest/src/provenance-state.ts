/**
 * The run-wide provenance state kept in the ingest process (it sees every record; the shards
 * each see only theirs): the owners table, the link graph and its signals, the story clusters
 * the table of kept pages for redundant-copy detection, and the page link log the server walks
 * (related, path). Their four logs are written at each commit, after the shards committed, like
 * the admission ledger.
 */
import { join } from 'node:path';
import { HIDDEN_TEXT_FILE } from '@evidence/native';
import { CopyTable, COPIES_FILE } from './copies.js';
import type { HostSignals } from './graph-signals.js';
import { LineAppender } from './line-appender.js';
import { collectLinks, GRAPH_FILE, HostGraph } from './link-graph.js';
import { OwnersTable } from './owners.js';
import { LINKS_FILE, PageLinkLog } from './page-links.js';
import { StoryClusters, STORIES_FILE } from './story-clusters.js';

/**
 * Hidden text that raised `hidden_text`, one JSON line per admitted page that had any
 * (`HiddenTextLine`: `{"page_id","url","fetched_at","hidden_pieces":[{technique, excerpt, element?, reason}]}`).
 * The engine's passages have no field for it, and it must stay out of their text.
 */
export { HIDDEN_TEXT_FILE };

export class ProvenanceState {
  readonly owners: OwnersTable;
  readonly graph: HostGraph;
  readonly hostSignals: ReadonlyMap<string, HostSignals>;
  readonly clusters: StoryClusters;
  readonly copies: CopyTable;
  readonly hiddenText: LineAppender;
  readonly pageLinks: PageLinkLog;

  private constructor(
    owners: OwnersTable,
    graph: HostGraph,
    hostSignals: ReadonlyMap<string, HostSignals>,
    clusters: StoryClusters,
    copies: CopyTable,
    hiddenText: LineAppender,
    pageLinks: PageLinkLog,
  ) {
    this.hiddenText = hiddenText;
    this.pageLinks = pageLinks;
    this.owners = owners;
    this.graph = graph;
    this.hostSignals = hostSignals;
    this.clusters = clusters;
    this.copies = copies;
  }

  /**
   * Load the owners table, replay the logs, and run pass 1 over `files` (links only) so the
   * graph signals are ready before any passage is indexed.
   */
  static async open(dataDir: string, files: readonly string[]): Promise<ProvenanceState> {
    const owners = OwnersTable.load(dataDir);
    const opened: Array<{ close(): void }> = [];
    try {
      const graph = await HostGraph.open(join(dataDir, GRAPH_FILE));
      opened.push(graph);
      await collectLinks(files, graph);
      const hostSignals = graph.signals();
      const clusters = await StoryClusters.open(join(dataDir, STORIES_FILE));
      opened.push(clusters);
      const copies = await CopyTable.open(join(dataDir, COPIES_FILE));
      opened.push(copies);
      const hiddenText = LineAppender.open(join(dataDir, HIDDEN_TEXT_FILE));
      opened.push(hiddenText);
      const pageLinks = PageLinkLog.open(join(dataDir, LINKS_FILE));
      return new ProvenanceState(owners, graph, hostSignals, clusters, copies, hiddenText, pageLinks);
    } catch (error) {
      for (const file of opened) file.close();
      throw error;
    }
  }

  /** Write what was appended since the last commit. */
  flush(): void {
    this.graph.flush();
    this.clusters.flush();
    this.copies.flush();
    this.hiddenText.flush();
    this.pageLinks.flush();
  }

  close(): void {
    this.graph.close();
    this.clusters.close();
    this.copies.close();
    this.hiddenText.close();
    this.pageLinks.close();
  }
}

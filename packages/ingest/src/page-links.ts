/**
 * The page link log behind the served link graph (`related`, `path`): `DATA_DIR/links.tsv`, one
 * line per admitted page that has links, `url <TAB> link <TAB> link ...`, appended at commit like
 * the other logs. The host graph (`graph.tsv`) cannot answer which page links to which; this
 * file can, and the server follows it as it grows (packages/evidence/src/page-graph.ts).
 *
 * Only absolute http(s) links are kept, each once per line, never the page itself, and never a
 * link holding white space (a tab or newline would break the line). Like the host graph, links
 * are facts about the web: a line is never taken back, and a page admitted again (a re-crawl, a
 * further passage record) appends its links again (the reader ignores repeated edges).
 */
import { LINKS_FILE } from '@evidence/native';
import { LineAppender } from './line-appender.js';

export { LINKS_FILE };

const WHITE_SPACE = /\s/;

/** The line for one page, or undefined when it has no link to keep. */
export function pageLinksLine(url: string, links: readonly string[] | undefined): string | undefined {
  if (!links || links.length === 0 || WHITE_SPACE.test(url)) return undefined;
  const kept: string[] = [];
  const seen = new Set<string>([url]);
  for (const link of links) {
    if (typeof link !== 'string' || !/^https?:\/\//i.test(link) || WHITE_SPACE.test(link) || seen.has(link)) continue;
    seen.add(link);
    kept.push(link);
  }
  return kept.length > 0 ? `${url}\t${kept.join('\t')}` : undefined;
}

export class PageLinkLog {
  private constructor(private readonly log: LineAppender) {}

  static open(path: string): PageLinkLog {
    return new PageLinkLog(LineAppender.open(path));
  }

  /** Record the links of an admitted page (written at the next flush). */
  record(url: string, links: readonly string[] | undefined): void {
    const line = pageLinksLine(url, links);
    if (line !== undefined) this.log.append(line);
  }

  flush(): void {
    this.log.flush();
  }

  close(): void {
    this.log.close();
  }
}

/**
 * Marks hits whose page hid text from its readers (crawl ingest recorded it in
 * DATA_DIR/hidden-text.jsonl), so the evidence workers raise `hidden_text` on them.
 */
import type { NativeHit } from '@evidence/native';
import type { Services } from '../services.js';

export async function markHiddenOnPage(services: Services, ...hitLists: NativeHit[][]): Promise<void> {
  const hiding = await services.hiddenText.hidingPages(hitLists.flatMap((hits) => hits.map((hit) => hit.page_id)));
  if (hiding.size === 0) return;
  for (const hits of hitLists) {
    for (const hit of hits) if (hiding.has(hit.page_id)) hit.hidden_on_page = true;
  }
}

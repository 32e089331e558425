import { DocumentParamsSchema, DocumentSchema, errors, type Document } from '@evidence/schemas';
import type { Capability } from '../capability.js';

/** GET /doc/{id}, tool get_document: full text of one passage (SPEC 4.2). */
export const documentCapability: Capability<typeof DocumentParamsSchema, Document> = {
  name: 'doc',
  cost: 1,
  failureCost: 1,
  params: DocumentParamsSchema,
  response: DocumentSchema,
  async run(params, services) {
    const { document, partial } = await services.pool.document(params.id, services.config.searchTimeoutMs);
    if (!document) {
      // A miss while a shard was unreachable is not proof of absence.
      if (partial) throw errors.noShard();
      throw errors.notFound(`no passage with id ${params.id}`);
    }
    return {
      id: document.id,
      url: document.url,
      host: document.host,
      title: document.title,
      vertical: document.vertical,
      lang: document.lang,
      host_rank: document.host_rank,
      quality: document.quality,
      text: document.text,
    };
  },
};

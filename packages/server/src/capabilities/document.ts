import { riskReport, stripInstructionLike } from '@evidence/evidence';
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
    const body: Document = {
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
    // strip implies risk; flags are always computed on the original text (SPEC 2.3).
    if (params.risk || params.strip) {
      const hiddenPieces = await services.hiddenText.piecesOf(document.page_id);
      const report = riskReport(document.text, { hostRank: document.host_rank, hiddenOnPage: hiddenPieces.length > 0 });
      body.risk_flags = report.flags;
      body.risk_spans = report.spans;
      if (hiddenPieces.length > 0) body.hidden_pieces = hiddenPieces;
    }
    if (params.strip) {
      const stripped = stripInstructionLike(document.text);
      body.text = stripped.text;
      body.sentences_removed = stripped.sentencesRemoved;
    }
    return body;
  },
};

/** The document capability: full text of one passage (SPEC 4.2, 2.3). */
import { z } from 'zod';

export const DocumentParamsSchema = z.object({
  id: z.string().min(1).describe('a passage id of the form page:no'),
});
export type DocumentParams = z.output<typeof DocumentParamsSchema>;

export const DocumentSchema = z.object({
  id: z.string(),
  url: z.string(),
  host: z.string(),
  title: z.string(),
  vertical: z.string(),
  lang: z.string(),
  host_rank: z.number(),
  quality: z.number().int(),
  text: z.string().describe('full cleaned body'),
});
export type Document = z.infer<typeof DocumentSchema>;

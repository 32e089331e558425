/**
 * Our WordPiece tokenizer against the reference: ids that Hugging Face `tokenizers` gives for the
 * same tokenizer.json on varied texts (fixtures/make-wordpiece-fixture.py wrote them).
 */
import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { MAX_SEQUENCE_TOKENS, WordPieceTokenizer, modelFiles } from '@evidence/embedders';

interface Reference {
  tokenizers: string;
  tokenizerSha256: string;
  maxTokens: number;
  cases: Array<{ text: string; ids: number[] }>;
}

const reference = JSON.parse(readFileSync(new URL('./fixtures/wordpiece-reference.json', import.meta.url), 'utf8')) as Reference;
const files = modelFiles();
const tokenizer = WordPieceTokenizer.fromFile(files.tokenizer);

describe('WordPieceTokenizer', () => {
  it('reads the tokenizer.json the reference was made from', () => {
    expect(createHash('sha256').update(readFileSync(files.tokenizer)).digest('hex')).toBe(reference.tokenizerSha256);
    expect(reference.maxTokens).toBe(MAX_SEQUENCE_TOKENS);
    expect(reference.cases.length).toBeGreaterThanOrEqual(60);
  });

  it(`gives the ids of Hugging Face tokenizers ${reference.tokenizers} for every reference text`, () => {
    const mismatches = reference.cases
      .map(({ text, ids }) => ({ text, expected: ids, actual: Array.from(tokenizer.encode(text).ids) }))
      .filter(({ expected, actual }) => expected.length !== actual.length || expected.some((id, index) => id !== actual[index]));
    expect(mismatches).toEqual([]);
  });

  it('truncates to 512 tokens with [CLS] first and [SEP] last, unpadded', () => {
    const encoding = tokenizer.encode('word '.repeat(2000));
    expect(encoding.ids.length).toBe(512);
    expect(encoding.ids[0]).toBe(tokenizer.clsId);
    expect(encoding.ids[511]).toBe(tokenizer.sepId);
    expect(Array.from(encoding.attentionMask).every((value) => value === 1)).toBe(true);
    expect(Array.from(encoding.tokenTypeIds).every((value) => value === 0)).toBe(true);
  });

  it('pads a batch with id 0 and attention 0 to its longest text', () => {
    const batch = tokenizer.encodeBatch(['a b c d', 'a']);
    expect(batch.batchSize).toBe(2);
    expect(batch.sequenceLength).toBe(6);
    const short = tokenizer.encode('a');
    expect(Array.from(batch.inputIds.subarray(6, 12))).toEqual([...Array.from(short.ids, BigInt), 0n, 0n, 0n]);
    expect(Array.from(batch.attentionMask.subarray(6, 12))).toEqual([1n, 1n, 1n, 0n, 0n, 0n]);
  });
});

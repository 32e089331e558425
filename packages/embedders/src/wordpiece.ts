/**
 * BERT's uncased WordPiece tokenizer, read from a Hugging Face `tokenizer.json`, producing the
 * same ids as the `tokenizers` library for that file: special tokens matched in the raw text,
 * BertNormalizer, BertPreTokenizer, WordPiece, then the [CLS] ... [SEP] template, truncated to
 * the model's 512 positions. test/wordpiece.test.ts holds it to ids made by `tokenizers` itself.
 *
 * Control characters, nonspacing marks and punctuation are looked up in tables read off
 * `tokenizers` (bert-unicode-classes.ts), not in the JavaScript engine's newer Unicode classes,
 * which differ on some 650 recently assigned code points.
 */
import { readFileSync } from 'node:fs';
import { BERT_CONTROL, BERT_NONSPACING_MARK, BERT_PUNCTUATION } from './bert-unicode-classes.js';

/** The position limit of BERT-style models, [CLS] and [SEP] included. */
export const MAX_SEQUENCE_TOKENS = 512;

/** One text's tokens: ids with [CLS] first and [SEP] last, and its attention and type masks. */
export interface Encoding {
  ids: Int32Array;
  attentionMask: Int32Array;
  tokenTypeIds: Int32Array;
}

/** Texts padded to one length, row after row, as BERT-style ONNX models take them (int64). */
export interface BatchEncoding {
  batchSize: number;
  sequenceLength: number;
  inputIds: BigInt64Array;
  attentionMask: BigInt64Array;
  tokenTypeIds: BigInt64Array;
}

interface AddedToken {
  id: number;
  content: string;
  normalized?: boolean;
  lstrip?: boolean;
  rstrip?: boolean;
  single_word?: boolean;
}

interface BertNormalizerConfig {
  type: 'BertNormalizer';
  clean_text?: boolean;
  handle_chinese_chars?: boolean;
  strip_accents?: boolean | null;
  lowercase?: boolean;
}

interface WordPieceModelConfig {
  type: 'WordPiece';
  vocab: Record<string, number>;
  unk_token: string;
  continuing_subword_prefix?: string;
  max_input_chars_per_word?: number;
}

type TemplatePiece = { SpecialToken: { id: string; type_id: number } } | { Sequence: { id: string; type_id: number } };

interface TokenizerJson {
  added_tokens?: AddedToken[];
  normalizer?: BertNormalizerConfig | null;
  pre_tokenizer?: { type: string } | null;
  model?: WordPieceModelConfig;
  post_processor?:
    | { type: 'TemplateProcessing'; single: TemplatePiece[]; special_tokens: Record<string, { ids: number[] }> }
    | { type: 'BertProcessing'; cls: [string, number]; sep: [string, number] }
    | null;
}

/** A set of code points held as sorted inclusive ranges, looked up by binary search. */
class CodePointSet {
  private readonly bounds: Uint32Array;

  /** `ranges`: space-separated hexadecimal code points and `first-last` ranges, in ascending order. */
  constructor(ranges: string) {
    const items = ranges.trim().split(/\s+/);
    this.bounds = new Uint32Array(items.length * 2);
    items.forEach((item, index) => {
      const [first, last = first] = item.split('-');
      this.bounds[index * 2] = parseInt(first, 16);
      this.bounds[index * 2 + 1] = parseInt(last, 16);
    });
  }

  has(codePoint: number): boolean {
    let low = 0;
    let high = this.bounds.length / 2 - 1;
    while (low <= high) {
      const middle = (low + high) >>> 1;
      if (codePoint < this.bounds[middle * 2]) high = middle - 1;
      else if (codePoint > this.bounds[middle * 2 + 1]) low = middle + 1;
      else return true;
    }
    return false;
  }
}

const CONTROL = new CodePointSet(BERT_CONTROL);
const NONSPACING_MARK = new CodePointSet(BERT_NONSPACING_MARK);
const PUNCTUATION = new CodePointSet(BERT_PUNCTUATION);
// White_Space is a stable property: the engine's class is the one Rust's char::is_whitespace uses.
const WHITESPACE = /^\p{White_Space}/u;

/**
 * A long segment is tokenised in chunks of about this many UTF-16 units, cut before a space or a
 * line feed: whitespace that every step keeps as a word boundary (not a control character, not
 * combined with by NFD), so the cut changes no token.
 */
const CHUNK_CHARACTERS = 2048;
const CHUNK_CUT = /[ \n]/g;

/** The CJK ideograph blocks `tokenizers` pads with spaces (its own ranges, typo included: 0x2B920). */
function isChineseCharacter(codePoint: number): boolean {
  return (
    (codePoint >= 0x4e00 && codePoint <= 0x9fff) ||
    (codePoint >= 0x3400 && codePoint <= 0x4dbf) ||
    (codePoint >= 0x20000 && codePoint <= 0x2a6df) ||
    (codePoint >= 0x2a700 && codePoint <= 0x2b73f) ||
    (codePoint >= 0x2b740 && codePoint <= 0x2b81f) ||
    (codePoint >= 0x2b920 && codePoint <= 0x2ceaf) ||
    (codePoint >= 0xf900 && codePoint <= 0xfaff) ||
    (codePoint >= 0x2f800 && codePoint <= 0x2fa1f)
  );
}

function isWhitespace(character: string): boolean {
  return WHITESPACE.test(character);
}

/** NFD, then without the nonspacing marks (what is left of an accented letter is its base). */
function stripAccents(text: string): string {
  let stripped = '';
  for (const character of text.normalize('NFD')) {
    if (!NONSPACING_MARK.has(character.codePointAt(0)!)) stripped += character;
  }
  return stripped;
}

function escapeRegExp(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}

function unsupported(what: string): Error {
  return new Error(`tokenizer.json: ${what} is not supported by this WordPiece tokenizer`);
}

export class WordPieceTokenizer {
  readonly vocabularySize: number;
  readonly clsId: number;
  readonly sepId: number;
  private readonly vocabulary: Map<string, number>;
  private readonly unknownId: number;
  private readonly subwordPrefix: string;
  private readonly maxCharactersPerWord: number;
  private readonly cleanText: boolean;
  private readonly handleChineseCharacters: boolean;
  private readonly stripAccents: boolean;
  private readonly lowercase: boolean;
  /** Special tokens as they appear in raw text, leftmost-longest first; undefined when there are none. */
  private readonly specialTokenPattern: RegExp | undefined;
  private readonly specialTokenIds: Map<string, number>;

  static fromFile(path: string): WordPieceTokenizer {
    return new WordPieceTokenizer(JSON.parse(readFileSync(path, 'utf8')) as TokenizerJson);
  }

  constructor(config: TokenizerJson) {
    const model = config.model;
    if (model?.type !== 'WordPiece') throw unsupported(`model type ${model?.type ?? 'none'}`);
    const normalizer = config.normalizer;
    if (normalizer && normalizer.type !== 'BertNormalizer') throw unsupported(`normalizer ${normalizer.type}`);
    if (config.pre_tokenizer?.type !== 'BertPreTokenizer') throw unsupported(`pre-tokenizer ${config.pre_tokenizer?.type ?? 'none'}`);

    this.vocabulary = new Map(Object.entries(model.vocab));
    this.vocabularySize = this.vocabulary.size;
    this.unknownId = this.idOf(model.unk_token);
    this.subwordPrefix = model.continuing_subword_prefix ?? '##';
    this.maxCharactersPerWord = model.max_input_chars_per_word ?? 100;

    // BertNormalizer's defaults; strip_accents null means "as lowercase".
    this.cleanText = normalizer ? normalizer.clean_text ?? true : false;
    this.handleChineseCharacters = normalizer ? normalizer.handle_chinese_chars ?? true : false;
    this.lowercase = normalizer ? normalizer.lowercase ?? true : false;
    this.stripAccents = normalizer ? normalizer.strip_accents ?? this.lowercase : false;

    [this.clsId, this.sepId] = this.readTemplate(config.post_processor);

    const specialTokens = (config.added_tokens ?? []).filter((token) => token.content !== '');
    for (const token of specialTokens) {
      if (token.normalized || token.lstrip || token.rstrip || token.single_word) throw unsupported(`added token ${token.content} with normalized, lstrip, rstrip or single_word`);
    }
    this.specialTokenIds = new Map(specialTokens.map((token) => [token.content, token.id]));
    this.specialTokenPattern =
      specialTokens.length === 0
        ? undefined
        : new RegExp(
            [...this.specialTokenIds.keys()]
              .sort((a, b) => b.length - a.length)
              .map(escapeRegExp)
              .join('|'),
            'g',
          );
  }

  /** [CLS] text [SEP] truncated to `maxTokens` (at least 2), as `tokenizers` with truncation to that length. */
  encode(text: string, maxTokens = MAX_SEQUENCE_TOKENS): Encoding {
    if (maxTokens < 2) throw new RangeError(`maxTokens must be at least 2, got ${maxTokens}`);
    const tokens = this.tokenIds(text, maxTokens - 2);
    const ids = new Int32Array(tokens.length + 2);
    ids[0] = this.clsId;
    ids.set(tokens, 1);
    ids[ids.length - 1] = this.sepId;
    return { ids, attentionMask: new Int32Array(ids.length).fill(1), tokenTypeIds: new Int32Array(ids.length) };
  }

  /** Several texts padded with id 0 (attention 0) to the longest of them. */
  encodeBatch(texts: readonly string[], maxTokens = MAX_SEQUENCE_TOKENS): BatchEncoding {
    return padBatch(texts.map((text) => this.encode(text, maxTokens)));
  }

  /** The text's token ids without [CLS]/[SEP], at most `limit` of them. */
  private tokenIds(text: string, limit: number): number[] {
    const ids: number[] = [];
    let start = 0;
    if (this.specialTokenPattern) {
      this.specialTokenPattern.lastIndex = 0;
      for (const match of text.matchAll(this.specialTokenPattern)) {
        if (ids.length >= limit) break;
        this.appendSegment(text.slice(start, match.index), ids, limit);
        if (ids.length < limit) ids.push(this.specialTokenIds.get(match[0])!);
        start = match.index + match[0].length;
      }
    }
    if (ids.length < limit) this.appendSegment(text.slice(start), ids, limit);
    return ids;
  }

  /** Appends a segment's ids up to `limit`, a chunk at a time, so that a long text is read only as far as needed. */
  private appendSegment(segment: string, ids: number[], limit: number): void {
    let start = 0;
    while (start < segment.length && ids.length < limit) {
      CHUNK_CUT.lastIndex = start + CHUNK_CHARACTERS;
      const end = start + CHUNK_CHARACTERS < segment.length ? (CHUNK_CUT.exec(segment)?.index ?? segment.length) : segment.length;
      for (const word of this.preTokenize(this.normalize(segment.slice(start, end)))) {
        for (const id of this.wordPiece(word)) {
          if (ids.length >= limit) return;
          ids.push(id);
        }
      }
      start = end;
    }
  }

  /** BertNormalizer: clean, space out CJK ideographs, strip accents, lowercase (that order). */
  normalize(text: string): string {
    let normalized = '';
    for (const character of text) {
      const codePoint = character.codePointAt(0)!;
      if (this.cleanText) {
        if (codePoint === 0 || codePoint === 0xfffd || CONTROL.has(codePoint)) continue;
        if (isWhitespace(character)) {
          normalized += ' ';
          continue;
        }
      }
      normalized += this.handleChineseCharacters && isChineseCharacter(codePoint) ? ` ${character} ` : character;
    }
    if (this.stripAccents) normalized = stripAccents(normalized);
    // Character by character, as `tokenizers` does: no final-sigma rule.
    if (this.lowercase) {
      let lowered = '';
      for (const character of normalized) lowered += character.toLowerCase();
      normalized = lowered;
    }
    return normalized;
  }

  /** BertPreTokenizer: split at whitespace, and every punctuation character is a word of its own. */
  preTokenize(text: string): string[] {
    const words: string[] = [];
    let word = '';
    for (const character of text) {
      if (isWhitespace(character)) {
        if (word !== '') words.push(word);
        word = '';
      } else if (PUNCTUATION.has(character.codePointAt(0)!)) {
        if (word !== '') words.push(word);
        words.push(character);
        word = '';
      } else {
        word += character;
      }
    }
    if (word !== '') words.push(word);
    return words;
  }

  /** Greedy longest-match-first pieces of one word; the whole word is [UNK] if any part has no piece. */
  private wordPiece(word: string): number[] {
    // UTF-16 offsets of each character, so that pieces are sliced on character boundaries.
    const boundaries: number[] = [];
    for (let offset = 0; offset < word.length; ) {
      boundaries.push(offset);
      offset += word.codePointAt(offset)! > 0xffff ? 2 : 1;
    }
    if (boundaries.length > this.maxCharactersPerWord) return [this.unknownId];
    boundaries.push(word.length);
    const pieces: number[] = [];
    let start = 0;
    while (start < boundaries.length - 1) {
      let end = boundaries.length - 1;
      let found: number | undefined;
      while (end > start) {
        const piece = word.slice(boundaries[start], boundaries[end]);
        found = this.vocabulary.get(start > 0 ? this.subwordPrefix + piece : piece);
        if (found !== undefined) break;
        end--;
      }
      if (found === undefined) return [this.unknownId];
      pieces.push(found);
      start = end;
    }
    return pieces;
  }

  private idOf(token: string): number {
    const id = this.vocabulary.get(token);
    if (id === undefined) throw new Error(`tokenizer.json: ${token} is not in the vocabulary`);
    return id;
  }

  /** The [CLS] and [SEP] ids of a single-sequence `[CLS] $A [SEP]` template. */
  private readTemplate(processor: TokenizerJson['post_processor']): [number, number] {
    const type: string = processor?.type ?? 'none';
    if (processor?.type === 'BertProcessing') return [processor.cls[1], processor.sep[1]];
    if (processor?.type !== 'TemplateProcessing') throw unsupported(`post-processor ${type}`);
    const [first, sequence, last] = processor.single;
    if (processor.single.length !== 3 || !first || !('SpecialToken' in first) || !sequence || !('Sequence' in sequence) || !last || !('SpecialToken' in last)) {
      throw unsupported('a single-sequence template other than [CLS] $A [SEP]');
    }
    if ([first.SpecialToken.type_id, sequence.Sequence.type_id, last.SpecialToken.type_id].some((typeId) => typeId !== 0)) {
      throw unsupported('a single-sequence template with type ids other than 0');
    }
    const idOfSpecial = (name: string): number => {
      const ids = processor.special_tokens[name]?.ids;
      if (ids?.length !== 1) throw unsupported(`special token ${name} of ${ids?.length ?? 0} ids`);
      return ids[0];
    };
    return [idOfSpecial(first.SpecialToken.id), idOfSpecial(last.SpecialToken.id)];
  }
}

/** Encodings padded with id 0 and attention 0 to the longest, as int64 rows. */
export function padBatch(encodings: readonly Encoding[]): BatchEncoding {
  const sequenceLength = encodings.reduce((longest, encoding) => Math.max(longest, encoding.ids.length), 0);
  const size = encodings.length * sequenceLength;
  const batch: BatchEncoding = {
    batchSize: encodings.length,
    sequenceLength,
    inputIds: new BigInt64Array(size),
    attentionMask: new BigInt64Array(size),
    tokenTypeIds: new BigInt64Array(size),
  };
  encodings.forEach((encoding, row) => {
    const offset = row * sequenceLength;
    for (let index = 0; index < encoding.ids.length; index++) {
      batch.inputIds[offset + index] = BigInt(encoding.ids[index]);
      batch.attentionMask[offset + index] = BigInt(encoding.attentionMask[index]);
      batch.tokenTypeIds[offset + index] = BigInt(encoding.tokenTypeIds[index]);
    }
  });
  return batch;
}

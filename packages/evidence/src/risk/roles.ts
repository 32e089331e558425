/**
 * `role_markers`: chat-template tokens (`<|im_start|>`, `<|system|>`, `[INST]`, `<<SYS>>`, ...),
 * instruction-template headers (`### Instruction:`) and role prefixes (`System:`, `Assistant:`,
 * `User:`, `Human:`) at the start of a line or sentence.
 */
import { INVISIBLE_ALL } from './characters.js';
import type { SentenceSpan } from './sentences.js';

/** Where a role marker was found and which kind it is. */
export interface RoleFinding extends SentenceSpan {
  reason: string;
}

/** Chat-template tokens, anywhere. */
const ROLE_TOKEN =
  /<\|\s*(?:im_start|im_end|im_sep|system|user|assistant|endoftext|eot_id|start_header_id|end_header_id|begin_of_text|end|fim_prefix|fim_middle|fim_suffix)\s*\|>|\[\/?INST\]|<<\/?SYS>>|<\/?(?:start_of_turn|end_of_turn)>|\[(?:system|assistant|user)\]\(#[\w-]*\)/gi;
/** At the start of a line or sentence: a role prefix followed by words (not `user: 'abc'` or `user: 42`), or an instruction-template header. */
const ROLE_AT_START = /^(?:(?:system|assistant|user|human)\s*:\s+[\p{L}<\[]|#{2,}\s*(?:system|instruction|response|human|assistant|user|input)\s*:)/iu;

/** Every chat-template token and every sentence opened by a role prefix, in order of offset. */
export function roleFindings(text: string, spans: readonly SentenceSpan[]): RoleFinding[] {
  const findings: RoleFinding[] = [];
  ROLE_TOKEN.lastIndex = 0;
  for (let match = ROLE_TOKEN.exec(text); match !== null; match = ROLE_TOKEN.exec(text)) {
    findings.push({ start: match.index, end: match.index + match[0].length, reason: `chat-template token ${match[0]}` });
  }
  for (const span of spans) {
    const sentence = text.slice(span.start, span.end);
    const cleaned = sentence.replace(INVISIBLE_ALL, '').normalize('NFKC');
    const prefix = ROLE_AT_START.exec(cleaned);
    if (!prefix) continue;
    const marker = prefix[0].slice(0, prefix[0].indexOf(':') + 1);
    // The prefix in the original sentence runs to its first colon.
    findings.push({ start: span.start, end: span.start + sentence.indexOf(':') + 1, reason: `role prefix ${marker.replace(/\s+/g, ' ')} opening a turn` });
  }
  return findings.sort((left, right) => left.start - right.start || left.end - right.end);
}

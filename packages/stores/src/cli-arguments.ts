/** Wrong invocation of the console: it prints the message and the usage, and exits 2. */
export class UsageError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'UsageError';
  }
}

export interface ParsedFlags {
  values: Map<string, string>;
  switches: Set<string>;
}

/**
 * Parses `--name value`, `--name=value` and bare switches. Only the flags a subcommand lists
 * are accepted, so a typo fails loudly instead of being ignored.
 */
export function parseFlags(
  command: string,
  words: readonly string[],
  accepted: { values: readonly string[]; switches: readonly string[] },
): ParsedFlags {
  const values = new Map<string, string>();
  const switches = new Set<string>();
  for (let index = 0; index < words.length; index += 1) {
    const word = words[index];
    if (!word.startsWith('--')) throw new UsageError(`unexpected argument ${word} for ${command}`);
    const equalsAt = word.indexOf('=');
    const name = equalsAt === -1 ? word.slice(2) : word.slice(2, equalsAt);
    if (accepted.switches.includes(name)) {
      if (equalsAt !== -1) throw new UsageError(`--${name} takes no value`);
      switches.add(name);
      continue;
    }
    if (!accepted.values.includes(name)) throw new UsageError(`unknown flag --${name} for ${command}`);
    let value: string | undefined;
    if (equalsAt !== -1) {
      value = word.slice(equalsAt + 1);
    } else {
      value = words[index + 1];
      index += 1;
    }
    if (value === undefined || value === '' || value.startsWith('--')) {
      throw new UsageError(`--${name} needs a value`);
    }
    if (values.has(name)) throw new UsageError(`--${name} given twice`);
    values.set(name, value);
  }
  return { values, switches };
}

export function requiredFlag(flags: ParsedFlags, name: string): string {
  const value = flags.values.get(name);
  if (value === undefined) throw new UsageError(`missing --${name}`);
  return value;
}

export function integerFlag(flags: ParsedFlags, name: string, minimum: number): number | undefined {
  const value = flags.values.get(name);
  if (value === undefined) return undefined;
  if (!/^\d+$/.test(value) || !Number.isSafeInteger(Number(value)) || Number(value) < minimum) {
    throw new UsageError(`--${name} must be an integer of at least ${minimum}, got ${value}`);
  }
  return Number(value);
}

export function booleanFlag(flags: ParsedFlags, name: string): boolean | undefined {
  const value = flags.values.get(name);
  if (value === undefined) return undefined;
  if (value === 'true') return true;
  if (value === 'false') return false;
  throw new UsageError(`--${name} must be true or false, got ${value}`);
}

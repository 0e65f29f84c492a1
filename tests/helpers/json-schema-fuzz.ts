import RandExp from 'randexp';

/** A JSON Schema (draft 2020-12) as the OpenAPI document holds it. */
export type JsonSchema = Record<string, unknown>;

/** A deterministic PRNG (mulberry32): the same seed gives the same cases on every machine. */
export class Random {
  private state: number;

  constructor(seed: number) {
    this.state = seed >>> 0;
  }

  /** A float in [0, 1). */
  next(): number {
    this.state = (this.state + 0x6d2b79f5) >>> 0;
    let t = this.state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  }

  /** A whole number in [min, max]. */
  int(min: number, max: number): number {
    return min + Math.floor(this.next() * (max - min + 1));
  }

  chance(probability: number): boolean {
    return this.next() < probability;
  }

  pick<T>(items: readonly T[]): T {
    if (!items.length) throw new Error('pick from nothing');
    return items[this.int(0, items.length - 1)]!;
  }
}

/** A stable 32-bit number for a text (FNV-1a), to give every operation a seed of its own. */
export function hashText(text: string): number {
  let hash = 0x811c9dc5;
  for (let index = 0; index < text.length; index += 1) hash = Math.imul(hash ^ text.charCodeAt(index), 0x01000193) >>> 0;
  return hash;
}

/**
 * Values worth sending for a field or parameter of that name: ids that exist, the real passkey.
 * `only`: never anything else in a valid case (a value the fakes would refuse, e.g. a speech model
 * the transcription server does not have, would otherwise turn a valid case into a 502).
 */
export type Hints = Record<string, { values: readonly unknown[]; only?: boolean }>;

const TEXT_ALPHABET = 'abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789 _-.#';

/** Strings that are valid Unicode text but awkward: emoji, RTL, combining marks, zero-width, CJK. */
export const AWKWARD_TEXT = ['🎬🔥', 'مرحبا', 'e\u0301\u0301', 'a\u200bb\u200d', '漢字かな', '\u{1F468}\u200D\u{1F469}\u200D\u{1F467}', 'Ω≈ç√∫', '\ufeffbom', '\ud800'];

const typesOf = (schema: JsonSchema): string[] => (Array.isArray(schema.type) ? (schema.type as string[]) : typeof schema.type === 'string' ? [schema.type] : []);

/** The branches of allOf folded into one schema (the later pattern wins; the document's are nested ones). */
function flatten(schema: JsonSchema): JsonSchema {
  if (!Array.isArray(schema.allOf)) return schema;
  const { allOf, ...rest } = schema;
  return Object.assign({}, ...(allOf as JsonSchema[]).map(flatten), rest) as JsonSchema;
}

function patternString(pattern: string, random: Random): string {
  const generator = new RandExp(pattern);
  generator.max = 12;
  generator.randInt = (from, to) => random.int(from, to);
  return generator.gen();
}

function stringValue(schema: JsonSchema, random: Random): string {
  const min = typeof schema.minLength === 'number' ? schema.minLength : 0;
  const max = typeof schema.maxLength === 'number' ? schema.maxLength : min + 24;
  if (typeof schema.pattern === 'string') {
    for (let attempt = 0; attempt < 20; attempt += 1) {
      const text = patternString(schema.pattern, random);
      if (text.length >= min && text.length <= max) return text;
    }
  }
  // Mostly short, now and then at the very limit.
  const length = random.chance(0.15) ? max : random.int(min, Math.min(max, min + 24));
  let text = '';
  for (let index = 0; index < length; index += 1) text += random.pick([...TEXT_ALPHABET]);
  return text;
}

function numberValue(schema: JsonSchema, random: Random, integer: boolean): number {
  const min = typeof schema.minimum === 'number' ? schema.minimum : -1000;
  const max = typeof schema.maximum === 'number' ? schema.maximum : 1000;
  const edge = random.next();
  if (edge < 0.15) return min;
  if (edge < 0.3) return max;
  return integer ? random.int(Math.ceil(min), Math.floor(max)) : min + random.next() * (max - min);
}

function objectValue(schema: JsonSchema, random: Random, hints: Hints): Record<string, unknown> {
  const properties = (schema.properties ?? {}) as Record<string, JsonSchema>;
  const required = new Set((schema.required ?? []) as string[]);
  const value: Record<string, unknown> = {};
  for (const [name, property] of Object.entries(properties)) {
    if (required.has(name) || random.chance(0.5)) value[name] = validValue(property, random, hints, name);
  }
  return value;
}

/** A value the schema accepts, built from its types, enums, bounds, lengths and patterns. */
export function validValue(original: JsonSchema, random: Random, hints: Hints = {}, name?: string): unknown {
  const hint = name === undefined ? undefined : hints[name];
  if (hint && (hint.only || random.chance(0.6))) return random.pick(hint.values);
  const schema = flatten(original);
  if ('const' in schema) return schema.const;
  if (Array.isArray(schema.enum)) return random.pick(schema.enum);
  if (Array.isArray(schema.anyOf)) return validValue(random.pick(schema.anyOf as JsonSchema[]), random, hints, name);
  if (Array.isArray(schema.oneOf)) return validValue(random.pick(schema.oneOf as JsonSchema[]), random, hints, name);
  const types = typesOf(schema);
  const nonNull = types.filter((type) => type !== 'null');
  if (types.includes('null') && (!nonNull.length || random.chance(0.15))) return null;
  switch (nonNull.length ? random.pick(nonNull) : 'any') {
    case 'string':
      return stringValue(schema, random);
    case 'integer':
      return numberValue(schema, random, true);
    case 'number':
      return numberValue(schema, random, false);
    case 'boolean':
      return random.chance(0.5);
    case 'array': {
      const min = typeof schema.minItems === 'number' ? schema.minItems : 0;
      const max = typeof schema.maxItems === 'number' ? schema.maxItems : min + 3;
      const items = (schema.items ?? {}) as JsonSchema;
      // Hints name whole values: items get none.
      return Array.from({ length: random.int(min, Math.min(max, min + 3)) }, () => validValue(items, random, hints));
    }
    case 'object':
      return objectValue(schema, random, hints);
    default:
      return random.pick([1, 'text', true, null, { a: 1 }, [1, 2]]);
  }
}

/** A JSON value of another type than the schema allows (numbers as strings, strings as arrays…). */
export function wrongTypeValue(schema: JsonSchema, random: Random): unknown {
  const types = typesOf(flatten(schema));
  const candidates: [string, unknown][] = [
    ['string', '12'],
    ['number', 12],
    ['integer', 7],
    ['boolean', true],
    ['array', ['x']],
    ['object', { nested: 'x' }],
    ['null', null],
  ];
  const wrong = candidates.filter(([type]) => !types.includes(type) && !(type === 'integer' && types.includes('number')));
  return random.pick(wrong.length ? wrong : candidates)[1];
}

/** A value just outside the schema's bounds or length, or of a number kind it refuses. */
export function outOfRangeValue(schema: JsonSchema, random: Random): unknown {
  const flat = flatten(schema);
  const types = typesOf(flat);
  if (types.includes('integer') || types.includes('number')) {
    const options: unknown[] = [1e308, -1e308, -0, 2 ** 53 + 1];
    if (typeof flat.minimum === 'number') options.push(flat.minimum - 1, flat.minimum - 0.5);
    if (typeof flat.maximum === 'number') options.push(flat.maximum + 1, flat.maximum + 0.5);
    if (types.includes('integer')) options.push(1.5);
    return random.pick(options);
  }
  if (types.includes('string')) {
    const max = typeof flat.maxLength === 'number' ? flat.maxLength : 5000;
    return random.pick(['x'.repeat(max + 1), '', ' '.repeat(max + 1), '\n\t']);
  }
  if (types.includes('array')) return Array.from({ length: (typeof flat.maxItems === 'number' ? flat.maxItems : 50) + 1 }, () => 'x');
  return wrongTypeValue(schema, random);
}

/** The names of an object schema's properties whose schema passes `test`. */
export function propertiesWhere(schema: JsonSchema, test: (property: JsonSchema) => boolean): string[] {
  const properties = (flatten(schema).properties ?? {}) as Record<string, JsonSchema>;
  return Object.entries(properties)
    .filter(([, property]) => test(flatten(property)))
    .map(([name]) => name);
}

export const isStringSchema = (schema: JsonSchema) => typesOf(flatten(schema)).includes('string');
export const isNumberSchema = (schema: JsonSchema) => typesOf(flatten(schema)).some((type) => type === 'number' || type === 'integer');

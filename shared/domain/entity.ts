import type * as z from 'zod/mini';
import type { FieldSpecs, RecordOf } from './fields';

/**
 * The shape of an entity declaration (one per entity, in shared/domain/entities/), in the spirit of
 * ElectroDB's entity schemas: name and kind, fields (zod), the storage key and index key composites,
 * the unique rule, references, derived values and rules. Everything else is derived from it:
 * - the record type (`EntityRecord<typeof x>`, from the zod fields);
 * - key builders and the table's indexes (shared/data/keys.ts, shared/data/table.ts);
 * - the change types of its events (shared/domain/changes.ts: `client.created`, ...);
 * - `usedBy` (shared/domain/registry.ts inverts every entity's references);
 * - the routes, the OpenAPI tag and the NOT_FOUND kind (shared/api/routes.ts, shared/api/openapi.ts).
 * Nothing here does I/O: rules read other records through the `lookup` the data layer hands them.
 */

/** The names of the declared fields of F. */
export type FieldName<F extends FieldSpecs> = keyof F & string;
/** A field that can go into a key: a declared field or the record's id. */
export type KeyField<F extends FieldSpecs> = FieldName<F> | 'id';

/**
 * One key attribute: `prefix` then the composite fields' values, joined with `#`. A partition key always
 * starts with the workspace (`WS#<workspaceId>`), so no key built from a caller's workspace reaches another.
 */
export interface KeyPart<K extends string = string> {
  prefix?: string;
  composite?: readonly K[];
}
export interface KeyDecl<K extends string = string> {
  pk: KeyPart<K>;
  sk: KeyPart<K>;
}
/** A global secondary index an entity writes: its key composites and the access pattern it serves. */
export interface IndexDecl<K extends string = string> extends KeyDecl<K> {
  /** What the index lists, for docs and the benchmark ("user+project"). */
  access: string;
  /**
   * A sparse index: only records for which `when` holds have its keys (e.g. running time entries), and
   * a list reads it exactly when its `param` filter is given (`?running=true`).
   */
  only?: { when: (rec: Readonly<Record<string, unknown>>) => boolean; param: string };
}
export type IndexSlot = `GSI${number}`;

/** Unique per workspace (or per `within` fields): a lock item holds the normalized value. */
export interface UniqueDecl<K extends string = string> {
  /** Lock family, e.g. CLIENTNAME (part of the lock item's key). */
  name: string;
  /** Compared trimmed and case-insensitively. */
  field: K;
  /** Fields the value is unique within (compared exactly), e.g. a task name within its project. */
  within?: readonly K[];
  /** The 409 message for a taken value, e.g. `A client named "Acme" already exists in this workspace`. */
  message: (value: string) => string;
  /**
   * The lock outlives a record for which this holds: it is never deleted by the record's change or delete
   * (an issued invoice number is never issued again). Absent: the lock goes with the value.
   */
  retain?: (rec: Readonly<EntityRecord<AnyEntity>>) => boolean;
}

export interface ReferenceDecl<K extends string = string> {
  /** Field holding the id (or ids, when many) of another entity's record. */
  field: K;
  /** Lazily, so declarations can reference each other. */
  target: () => AnyEntity;
  many?: boolean;
}

/** Reads another record of the caller's workspace (the data layer provides it). */
export type Lookup = <E extends AnyEntity>(entity: E, id: string) => Promise<EntityRecord<E> | undefined>;

/** What a rule sees besides the record: the stored record and the sent fields on update. */
export interface RuleContext {
  lookup: Lookup;
  /** The stored record (update only). */
  before?: Readonly<EntityRecord<AnyEntity>>;
  /** The fields the request sent (update only): tells a field sent unchanged from one not sent. */
  patch?: Readonly<Record<string, unknown>>;
}

/** A cross-field or cross-record rule. It may fill fields it resolves (e.g. a project's client). */
export interface RuleDecl<K extends string = string, R = Record<string, unknown>> {
  /** Every field the rule reads or fills: an update that sends none of them skips it. */
  reads: readonly K[];
  /** The record (its entity's, typed from the declaration). Method syntax: see assertDeletable. */
  check(rec: R, ctx: RuleContext): void | Promise<void>;
}

/** Server-computed values (normalized instants, durations), applied on create and after every merge. */
export interface DerivedDecl<K extends string = string, R = Record<string, unknown>> {
  reads: readonly K[];
  /** Method syntax: see assertDeletable. */
  apply(rec: R): R;
}

export interface EntityDeclaration<F extends FieldSpecs = FieldSpecs, C extends z.core.$ZodShape = z.core.$ZodShape, R extends string = string, K extends string = string> {
  /** Path segment of its routes and OpenAPI tag, e.g. `time-entries`. */
  resource: R;
  /** Human name in messages ("Time entry not found") and route ids (`getTimeEntry`). */
  kind: K;
  /** Item type tag, e.g. TIMEENTRY. */
  type: string;
  /** One line for the OpenAPI tag. */
  description: string;
  fields: F;
  /** Server-computed response fields (stored, or the exposed sort key), e.g. durationMinutes, sortKey. */
  computed?: C;
  /** The response field that carries the item's sort key (the entry's public `sortKey`). */
  sortKeyField?: keyof C & string;
  key: KeyDecl<KeyField<F>>;
  indexes?: Partial<Record<IndexSlot, IndexDecl<KeyField<F>>>>;
  unique?: UniqueDecl<FieldName<F>>;
  references?: readonly ReferenceDecl<FieldName<F>>[];
  derived?: DerivedDecl<FieldName<F>, EntityRecordOf<F, C>>;
  rules?: readonly RuleDecl<FieldName<F>, EntityRecordOf<F, C>>[];
  /**
   * Throws a conflict when the record's own state forbids deleting it (e.g. a paid invoice). Method
   * syntax on purpose: it keeps a declaration assignable to AnyEntity (parameters compare bivariantly).
   */
  assertDeletable?(rec: EntityRecordOf<F, C>): void;
  /**
   * A field naming the record that holds this one (an invoiced time entry's `invoiceId`): while it is set,
   * every update and delete is refused with 409 and the message built from the holder (read by id; absent
   * while the holder is being made or released).
   */
  heldBy?: HeldByDecl;
  list: ListDecl;
  /**
   * Whether its writes make change-feed events (default true). `false` for records that are not
   * time-tracking data (webhook endpoints): the repository then writes them without an event.
   */
  changes?: boolean;
}

/**
 * How the list route reads: `whole` lists are returned complete, sorted by name; `paged` lists are
 * paginated newest first (cursor). `via` names the access patterns a list may use ('key' = the table's
 * key), in order of preference: the planner takes the one whose partition the filters fill best.
 * `range` turns the list's startDate/endDate into bounds of the sort key.
 */
export interface ListDecl {
  mode: 'whole' | 'paged';
  /** Order of a whole list: by name (default), or by creation (the ULID id). */
  order?: 'name' | 'created';
  via: readonly ('key' | IndexSlot)[];
  range?: (startDate?: string, endDate?: string) => { lo: string; hi: string };
  /**
   * A whole list's bound (docs/capacity.md, "Bounded whole lists"): at most `maxRecords` records (the
   * environment variable `env` overrides it) per workspace, or per value of the field `per` (favorites:
   * per user), and at most WHOLE_LIST_MAX_BYTES of their JSON; counted exactly in the record's transaction.
   */
  bound?: { maxRecords: number; env: string; per?: string };
  /**
   * List parameters that are not plain string equality on a field of the same name: `field` names the
   * stored attribute, `op` `contains` tests membership in a list attribute (a tag in tagIds), `type`
   * `boolean` compares with true/false (the query string carries "true" / "false"); `op` `exists` with
   * `type` `boolean` tests whether the field is set (`?invoiced=true` -> attribute_exists(invoiceId)).
   */
  filters?: Readonly<Record<string, { field?: string; op?: 'eq' | 'contains' | 'exists'; type?: 'boolean' }>>;
  /**
   * A filter that implies another, found by reading the named record (a task's project): the list adds
   * the implied filter so it reads the narrower partition (taskId -> the project's index + filter).
   */
  implies?: ReadonlyArray<{ param: string; target: () => AnyEntity; field: string }>;
}

/** The largest a whole list's records may weigh together (their JSON, UTF-8): docs/capacity.md has the arithmetic. */
export const WHOLE_LIST_MAX_BYTES = 2_500_000;

/**
 * Any entity declaration, field names erased to string (what generic code such as the repository takes).
 * Every EntityDeclaration<F, C> is assignable to it.
 */
export interface AnyEntity {
  resource: string;
  kind: string;
  type: string;
  description: string;
  fields: FieldSpecs;
  computed?: z.core.$ZodShape;
  sortKeyField?: string;
  key: KeyDecl;
  indexes?: Partial<Record<IndexSlot, IndexDecl>>;
  unique?: UniqueDecl;
  references?: readonly ReferenceDecl[];
  derived?: DerivedDecl;
  rules?: readonly RuleDecl[];
  assertDeletable?(rec: Readonly<EntityRecord<AnyEntity>>): void;
  heldBy?: HeldByDecl;
  list: ListDecl;
  changes?: boolean;
}

/** See EntityDeclaration.heldBy. */
export interface HeldByDecl {
  field: string;
  target: () => AnyEntity;
  message: (rec: Readonly<Record<string, unknown>>, holder: Readonly<Record<string, unknown>> | undefined) => string;
}

/** A record as the API shows it: its fields, computed fields and its ETag (the revision it is at). */
export type EntityRecordOf<F extends FieldSpecs, C extends z.core.$ZodShape> = RecordOf<F> & { [P in keyof C]?: z.output<C[P]> } & { etag?: string };
/** The record of an entity as the API shows it. */
export type EntityRecord<E extends AnyEntity> = EntityRecordOf<E['fields'], NonNullable<E['computed']>>;
/** The index names an entity declares. */
export type IndexesOf<E extends AnyEntity> = E extends { indexes: infer I } ? keyof I & IndexSlot : never;

/** Declares an entity: checks the declaration's internal consistency at load time. */
export function defineEntity<
  const F extends FieldSpecs,
  const R extends string,
  const K extends string,
  const C extends z.core.$ZodShape = Record<never, never>,
  const Ch extends boolean | undefined = undefined,
>(decl: EntityDeclaration<F, C, R, K> & { changes?: Ch }): EntityDeclaration<F, C, R, K> & { changes?: Ch } {
  const known = new Set<string>([...Object.keys(decl.fields), 'id']);
  const parts = [decl.key, ...Object.values(decl.indexes ?? {})].flatMap((k) => (k ? [k.pk, k.sk] : []));
  for (const f of parts.flatMap((p) => p.composite ?? [])) if (!known.has(f)) throw new Error(`${decl.type}: key composite ${f} is not a field`);
  for (const via of decl.list.via) if (via !== 'key' && !decl.indexes?.[via]) throw new Error(`${decl.type}: list via ${via}, which it does not declare`);
  return decl;
}

/** Every field a key, index key or the unique rule's value is built from (the record's id excepted). */
export function keyFields(e: AnyEntity): string[] {
  const parts = [e.key, ...Object.values(e.indexes ?? {})].flatMap((k) => (k ? [k.pk, k.sk] : []));
  return [...parts.flatMap((p) => p.composite ?? []), ...(e.unique ? [e.unique.field, ...(e.unique.within ?? [])] : [])].filter((f) => f !== 'id');
}

/** The normalized unique value of a record, or undefined when it takes no lock. */
export function uniqueValue(rule: UniqueDecl, rec: Readonly<Record<string, unknown>>): string | undefined {
  const value = rec[rule.field];
  if (typeof value !== 'string') return undefined;
  return [...(rule.within ?? []).map((f) => String(rec[f])), value.trim().toLowerCase()].join('#');
}

/** How a 409 names the records of an entity still using another: "time entry(ies)", "task(s)". */
export const pluralLabel = (e: AnyEntity) => {
  const k = e.kind.toLowerCase();
  return k.endsWith('y') ? `${k}(ies)` : `${k}(s)`;
};

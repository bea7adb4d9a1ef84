import { getMetadataStorage } from 'class-validator';

type Storage = ReturnType<typeof getMetadataStorage>;
type Lookup = Storage['getTargetValidationMetadatas'];
type Metadatas = ReturnType<Lookup>;
type Grouped = ReturnType<Storage['groupByPropertyName']>;

const remembering = new WeakSet<Storage>();

/**
 * class-validator resolves a class's rules again for every object it validates: `getTargetValidationMetadatas` tests
 * the class against every class that has rules (`instanceof`, for inherited ones) and `groupByPropertyName` groups
 * them anew (typestack/class-validator#2686, open). A 50-message sandbox batch is 51 such lookups. A class's rules
 * are declared when it is defined, so its answer only changes when rules are added: this keeps each answer (per
 * class and options) and its grouping until then. The executor only reads both.
 */
export function rememberValidationRules(storage: Storage = getMetadataStorage()): void {
  if (remembering.has(storage)) return;
  remembering.add(storage);
  const lookup: Lookup = storage.getTargetValidationMetadatas.bind(storage);
  const group = storage.groupByPropertyName.bind(storage);
  const addRule = storage.addValidationMetadata.bind(storage);
  let answers = new WeakMap<object, Map<string, Metadatas>>();
  let groupings = new WeakMap<Metadatas, Grouped>();

  storage.addValidationMetadata = (metadata) => {
    answers = new WeakMap();
    groupings = new WeakMap();
    addRule(metadata);
  };
  storage.getTargetValidationMetadatas = (target, schema, always, strictGroups, groups) => {
    // a schema's name is no object to key on: not kept (the services validate classes)
    if (typeof target !== 'function') return lookup(target, schema, always, strictGroups, groups);
    const key = JSON.stringify([schema, always, strictGroups, groups ?? null]);
    let ofTarget = answers.get(target);
    if (!ofTarget) answers.set(target, (ofTarget = new Map()));
    let answer = ofTarget.get(key);
    if (!answer) ofTarget.set(key, (answer = lookup(target, schema, always, strictGroups, groups)));
    return answer;
  };
  storage.groupByPropertyName = (metadatas) => {
    let grouped = groupings.get(metadatas);
    if (!grouped) groupings.set(metadatas, (grouped = group(metadatas)));
    return grouped;
  };
}

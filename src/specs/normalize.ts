import type { Fact } from '../model/fact.js';
import type { AnchorLevel, NeedleSpec, RequiredPath, RubricCriterion, RubricSpec } from '../model/spec.js';

/** The needle as its YAML says it, once the schema has accepted it. */
export interface NeedleYaml {
  id: string;
  title?: string;
  description?: string;
  answer: string;
  aliases?: string[];
  required_path: string[] | { relations: string[]; from?: string; to?: string; directed?: boolean };
  required_cites?: Fact[];
  stores?: string[];
  thresholds?: NeedleSpec['thresholds'];
  workups?: string[];
}

export interface RubricYaml {
  id: string;
  title?: string;
  description?: string;
  system?: string;
  threshold?: number;
  workups?: string[];
  criteria: Array<{
    id: string;
    title: string;
    question: string;
    anchors: Record<string, string>;
    weight?: number;
    threshold?: number;
  }>;
}

/** The long form of a needle: `required_path` always `{ relations, from?, to?, directed }`, lists never absent. */
export function normalizeNeedle(yaml: NeedleYaml, file?: string): NeedleSpec {
  const path = yaml.required_path;
  const requiredPath: RequiredPath = Array.isArray(path)
    ? { relations: [...path], directed: false }
    : {
        relations: [...path.relations],
        ...(path.from !== undefined && { from: path.from }),
        ...(path.to !== undefined && { to: path.to }),
        directed: path.directed ?? false,
      };
  return {
    kind: 'needle',
    id: yaml.id,
    ...(yaml.title !== undefined && { title: yaml.title }),
    ...(yaml.description !== undefined && { description: yaml.description }),
    answer: yaml.answer,
    aliases: yaml.aliases ?? [],
    required_path: requiredPath,
    required_cites: yaml.required_cites ?? [],
    stores: yaml.stores ?? [],
    thresholds: yaml.thresholds ?? {},
    ...(yaml.workups !== undefined && { workups: yaml.workups }),
    ...(file !== undefined && { file }),
  };
}

export function normalizeRubric(yaml: RubricYaml, file?: string): RubricSpec {
  return {
    kind: 'rubric',
    id: yaml.id,
    ...(yaml.title !== undefined && { title: yaml.title }),
    ...(yaml.description !== undefined && { description: yaml.description }),
    ...(yaml.threshold !== undefined && { threshold: yaml.threshold }),
    ...(yaml.workups !== undefined && { workups: yaml.workups }),
    ...(yaml.system !== undefined && { system: yaml.system }),
    criteria: yaml.criteria.map(
      (c): RubricCriterion => ({
        id: c.id,
        title: c.title,
        question: c.question,
        anchors: c.anchors as Record<AnchorLevel, string>,
        weight: c.weight ?? 1,
        ...(c.threshold !== undefined && { threshold: c.threshold }),
      }),
    ),
    ...(file !== undefined && { file }),
  };
}

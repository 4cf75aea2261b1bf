// What a YAML text's readers report, as the diagnostics' one-line forms: the tests compare the light path (js-yaml,
// and the windows of src/parse/yaml-window.ts) with the `yaml` package reading the whole text.
import { formatDiagnostic, UserError } from '../../src/errors/index.js';
import { parseYaml } from '../../src/parse/yaml.js';
import { loadYamlFast } from '../../src/parse/yaml-fast.js';

/** parseYaml's diagnostics of a text (the `yaml` package reading it whole), or [] when it reads. */
export function diagnostics(text: string): string[] {
  return reported(() => {
    parseYaml(text, 'f.yaml');
  });
}

/** The light path's diagnostics of a text: [] when it reads the text, undefined when it leaves it to `parseYaml`. */
export function lightDiagnostics(text: string): string[] | undefined {
  let read: boolean | undefined;
  const found = reported(() => {
    read = loadYamlFast(text, { file: 'f.yaml' }) !== undefined;
  });
  return read === false ? undefined : found;
}

function reported(read: () => void): string[] {
  try {
    read();
    return [];
  } catch (error) {
    if (error instanceof UserError) return error.diagnostics.map(formatDiagnostic);
    throw error;
  }
}

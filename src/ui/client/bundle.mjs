// The client as one script, for the served UI and the HTML report alike. `npm run build` runs this after compiling the
// client's modules into dist/.client: it bundles main.js and every module it imports (the workup view's too) into
// dist/src/ui/client/needlework.js, minified, and removes the modules. Served, the page loads one file rather than
// twenty-two one after another from the server's one thread; in the report it is inlined, under the page's
// Content-Security-Policy hash, since a page opened from file:// can load no module.
import { mkdir, rm, writeFile } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { build } from 'rolldown';

const dist = join(dirname(fileURLToPath(import.meta.url)), '../../../dist');
const modules = join(dist, '.client');
const { output } = await build({
  input: join(modules, 'main.js'),
  write: false,
  logLevel: 'warn',
  output: { format: 'iife', minify: true, codeSplitting: false },
});
if (output.length !== 1 || output[0].type !== 'chunk')
  throw new Error(`the client bundled into ${output.length} files, not one`);
const code = output[0].code;
// Inline, the script ends at the first `</script`; `<!--` would change how the HTML parser reads what follows.
if (/<\/script|<!--/i.test(code))
  throw new Error('the client holds </script or <!--: the report cannot inline it');
const folder = join(dist, 'src', 'ui', 'client');
await mkdir(folder, { recursive: true });
await writeFile(join(folder, 'needlework.js'), code);
await rm(modules, { recursive: true, force: true });

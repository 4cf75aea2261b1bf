// The static HTML report inlines the client: one script, under the page's Content-Security-Policy hash, since a page
// opened from file:// can load no module. `npm run build` runs this after compiling the client: it bundles
// dist/src/ui/client/main.js and every module it imports (the workup view's too, which the served UI loads when first
// opened) into dist/src/ui/report/bundle.js, minified, beside the report's builder: the served UI keeps loading the
// modules as they are, and its folder holds only what its page loads.
import { mkdir, writeFile } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { build } from 'rolldown';

const dist = join(dirname(fileURLToPath(import.meta.url)), '../../../dist/src/ui');
const folder = join(dist, 'client');
const { output } = await build({
  input: join(folder, 'main.js'),
  write: false,
  logLevel: 'warn',
  output: { format: 'iife', minify: true, codeSplitting: false },
});
if (output.length !== 1 || output[0].type !== 'chunk')
  throw new Error(`the report's client bundled into ${output.length} files, not one`);
const code = output[0].code;
// Inline, the script ends at the first `</script`; `<!--` would change how the HTML parser reads what follows.
if (/<\/script|<!--/i.test(code))
  throw new Error("the report's client holds </script or <!--: it cannot be inlined");
await mkdir(join(dist, 'report'), { recursive: true });
await writeFile(join(dist, 'report', 'bundle.js'), code);

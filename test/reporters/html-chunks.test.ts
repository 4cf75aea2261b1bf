import { describe, expect, it } from 'vitest';
import { embedJson, htmlPageChunks, renderHtmlPage } from '../../src/report/html/page.js';
import type { HtmlReportData } from '../../src/report/html/types.js';

const DATA_OPEN = '<script type="application/json" id="needlework-data">';

describe('the HTML page written in pieces', () => {
  it('embeds exactly the JSON of the whole data, lists item by item, agent text still script-safe', async () => {
    const data = {
      schema: 1,
      title: 'a </script><script>alert(1)</script> report',
      generatedAt: '2026-11-23T00:00:00.000Z',
      summary: { checks: 2, note: 'a & b \u2028 c' },
      checks: [{ spec: 's', summary: '<!-- x -->', value: undefined }, null, undefined],
      tests: [],
      workups: [{ id: 'w', note: { text: '</script>' } }],
      trend: undefined,
    } as unknown as HtmlReportData;
    const chunks = await collect(htmlPageChunks(data));
    const page = chunks.join('');
    expect(page).toBe(await renderHtmlPage(data));
    const start = page.indexOf(DATA_OPEN) + DATA_OPEN.length;
    const json = page.slice(start, page.indexOf('</script>', start));
    expect(json).toBe(embedJson(data));
    expect(JSON.parse(json).checks).toEqual([{ spec: 's', summary: '<!-- x -->' }, null, null]);
    // The lists come an item at a time, not as one string.
    expect(chunks).toContain(',null');
  });

  it('writes the charts last, once they are known, after every other field', async () => {
    const data = {
      schema: 1,
      title: 't',
      generatedAt: '2026-11-27T00:00:00.000Z',
      checks: [{ spec: 's' }],
      tests: [],
      workups: [],
    } as unknown as HtmlReportData;
    const trend = { runs: [{ id: 'this run' }] } as unknown as HtmlReportData['trend'];
    let chart!: (fields: Partial<HtmlReportData>) => void;
    const charted = new Promise<Partial<HtmlReportData>>((resolve) => {
      chart = resolve;
    });
    const chunks = htmlPageChunks(data, charted)[Symbol.asyncIterator]();
    let written = '';
    // Every field of the data comes while the charts are still unknown.
    while (!written.includes('"workups":[]')) written += (await chunks.next()).value;
    let next: IteratorResult<string> | undefined;
    const waiting = chunks.next().then((result) => {
      next = result;
    });
    await new Promise((resolve) => setTimeout(resolve, 10));
    expect(next).toBeUndefined();
    chart({ trend });
    await waiting;
    for (let r = next; r && !r.done; r = await chunks.next()) written += r.value;
    expect(written).toBe(await renderHtmlPage({ ...data, trend }));
  });
});

async function collect(chunks: AsyncIterable<string>): Promise<string[]> {
  const out: string[] = [];
  for await (const chunk of chunks) out.push(chunk);
  return out;
}

import { describe, expect, it } from 'vitest';
import { embedJson, htmlPageChunks, renderHtmlPage } from '../../src/report/html/page.js';
import type { HtmlReportData } from '../../src/report/html/types.js';

const DATA_OPEN = '<script type="application/json" id="needlework-data">';

describe('the HTML page written in pieces', () => {
  it('embeds exactly the JSON of the whole data, lists item by item, agent text still script-safe', () => {
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
    const chunks = [...htmlPageChunks(data)];
    const page = chunks.join('');
    expect(page).toBe(renderHtmlPage(data));
    const start = page.indexOf(DATA_OPEN) + DATA_OPEN.length;
    const json = page.slice(start, page.indexOf('</script>', start));
    expect(json).toBe(embedJson(data));
    expect(JSON.parse(json).checks).toEqual([{ spec: 's', summary: '<!-- x -->' }, null, null]);
    // The lists come an item at a time, not as one string.
    expect(chunks).toContain(',null');
  });
});

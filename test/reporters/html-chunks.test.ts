import { describe, expect, it } from 'vitest';
import type { ReportAnswer } from '../../src/report/html/answers.js';
import { embedJson, htmlPageChunks, renderHtmlPage } from '../../src/report/html/page.js';
import { readReport } from '../../src/report/html/read.js';
import type { ReportInfo } from '../../src/ui/client/types.js';

const INFO: ReportInfo = {
  run: 'r1',
  title: 'a </script><script>alert(1)</script> report',
  generatedAt: '2026-11-23T00:00:00.000Z',
  home: '/runs/r1',
};

async function* listed(answers: ReportAnswer[]): AsyncGenerator<ReportAnswer> {
  yield* answers;
}

describe('the HTML page written in pieces', () => {
  it('embeds exactly the JSON of each answer, lists item by item, agent text still script-safe', async () => {
    const answer = {
      run: { id: 'r1', note: 'a & b \u2028 c' },
      checks: [{ spec: 's', reason: '<!-- x -->', value: undefined }, null, undefined],
      empty: [],
    };
    const path = '/api/runs/r1?x="</script>';
    const chunks = await collect(htmlPageChunks(INFO, listed([[path, answer]])));
    const page = chunks.join('');
    expect(page).toBe(await renderHtmlPage(INFO, listed([[path, answer]])));
    // The attribute naming the path is escaped, the block's JSON is the answer's, with nothing that ends the element.
    const open = `<script type="application/json" data-api="/api/runs/r1?x=&#34;&#60;/script&#62;">`;
    const start = page.indexOf(open) + open.length;
    const json = page.slice(start, page.indexOf('</script>', start));
    expect(json).toBe(embedJson(answer));
    expect(json).not.toMatch(/<|>/);
    expect(JSON.parse(json).checks).toEqual([{ spec: 's', reason: '<!-- x -->' }, null, null]);
    expect(readReport(page).answers.get(path)).toEqual(JSON.parse(json));
    expect(readReport(page).info).toEqual(INFO);
    // The title is text; the one script of the page is the client's, after every answer.
    expect(page).toContain(
      '<title>a &#60;/script&#62;&#60;script&#62;alert(1)&#60;/script&#62; report</title>',
    );
    expect(page.match(/<script>/g)).toHaveLength(1);
    expect(page.indexOf('<script>')).toBeGreaterThan(page.lastIndexOf('data-api='));
    // The lists come an item at a time, not as one string.
    expect(chunks).toContain(',null');
  });

  it('writes an answer that comes late (the trend, once the store has appended the run) after every other', async () => {
    let chart!: () => void;
    const charted = new Promise<void>((resolve) => {
      chart = resolve;
    });
    async function* answers(): AsyncGenerator<ReportAnswer> {
      yield ['/api/runs/r1', { checks: [{ spec: 's' }] }];
      await charted;
      yield ['/api/trends?last=30', { runs: [{ id: 'this run' }] }];
    }
    const chunks = htmlPageChunks(INFO, answers())[Symbol.asyncIterator]();
    let written = '';
    // The first answer is written while the trend is still unknown.
    while (!written.includes('data-api="/api/runs/r1"') || !written.endsWith('</script>\n'))
      written += (await chunks.next()).value;
    let next: IteratorResult<string> | undefined;
    const waiting = chunks.next().then((result) => {
      next = result;
    });
    await new Promise((resolve) => setTimeout(resolve, 10));
    expect(next).toBeUndefined();
    chart();
    await waiting;
    for (let r = next; r && !r.done; r = await chunks.next()) written += r.value;
    const whole = await renderHtmlPage(
      INFO,
      listed([
        ['/api/runs/r1', { checks: [{ spec: 's' }] }],
        ['/api/trends?last=30', { runs: [{ id: 'this run' }] }],
      ]),
    );
    expect(written).toBe(whole);
  });
});

async function collect(chunks: AsyncIterable<string>): Promise<string[]> {
  const out: string[] = [];
  for await (const chunk of chunks) out.push(chunk);
  return out;
}

import { gunzipSync } from 'node:zlib';
import { describe, expect, it } from 'vitest';
import type { ReportInfo } from '../../src/ui/client/types.js';
import type { ReportAnswer } from '../../src/ui/report/answers.js';
import { htmlPageChunks, renderHtmlPage } from '../../src/ui/report/page.js';
import { readReport } from '../../src/ui/report/read.js';

const INFO: ReportInfo = {
  run: 'r1',
  title: 'a </script><script>alert(1)</script> report',
  generatedAt: '2026-11-23T00:00:00.000Z',
  home: '/runs/r1',
};

async function* listed(answers: ReportAnswer[]): AsyncGenerator<ReportAnswer> {
  yield* answers;
}

/** A segment of the page's packed answers, as its text. */
function unpacked(page: string, segment = 0): string {
  const packed = new RegExp(`id="needlework-answers-${segment}">([^<]*)</script>`).exec(page)?.[1] ?? '';
  return gunzipSync(Buffer.from(packed, 'base64')).toString('utf8');
}

describe('the HTML page written in pieces', () => {
  it("packs exactly each answer's JSON, lists item by item, and indexes each by its path", async () => {
    const answer = {
      run: { id: 'r1', note: 'a & b \u2028 c é 🧵' },
      checks: [{ spec: 's', reason: '<!-- x --></script>', value: undefined }, null, undefined],
      empty: [],
    };
    const path = '/api/runs/r1?x="</script>';
    const chunks = await collect(
      htmlPageChunks(
        INFO,
        listed([
          [path, answer],
          ['/api/other', [1, 2]],
        ]),
      ),
    );
    const page = chunks.join('');
    expect(page).toBe(
      await renderHtmlPage(
        INFO,
        listed([
          [path, answer],
          ['/api/other', [1, 2]],
        ]),
      ),
    );
    // The text is the answers' JSON one after the other; the index says where each lies, in UTF-16 code units.
    const json = JSON.stringify(answer);
    expect(unpacked(page)).toBe(`${json}[1,2]`);
    const index = JSON.parse(/id="needlework-index">([^<]*)<\/script>/.exec(page)?.[1] ?? '[]');
    expect(index).toEqual([
      [path, 0, 0, json.length],
      ['/api/other', 0, json.length, json.length + 5],
    ]);
    const { info, answers } = readReport(page);
    expect(info).toEqual(INFO);
    expect(answers.get(path)).toEqual(JSON.parse(json));
    expect(JSON.parse(json).checks).toEqual([{ spec: 's', reason: '<!-- x --></script>' }, null, null]);
    // Nothing the answers or the title hold is markup: the title is text, the path escaped, the answers base64.
    expect(page).toContain(
      '<title>a &#60;/script&#62;&#60;script&#62;alert(1)&#60;/script&#62; report</title>',
    );
    expect(page).not.toContain('<!-- x');
    expect(page.match(/<script>/g)).toHaveLength(1);
    expect(page.indexOf('<script>')).toBeGreaterThan(page.indexOf('id="needlework-index"'));
  });

  it('writes each answer as it comes: one that comes late (the trend) is awaited after the others are written', async () => {
    let chart!: () => void;
    const charted = new Promise<void>((resolve) => {
      chart = resolve;
    });
    let asked = 0;
    async function* answers(): AsyncGenerator<ReportAnswer> {
      asked++;
      yield ['/api/runs/r1', { checks: [{ spec: 's' }] }];
      // Asked for the next one: the first is written (into the compressor) already.
      asked++;
      await charted;
      yield ['/api/trends?last=30', { runs: [{ id: 'this run' }] }];
    }
    const chunks = htmlPageChunks(INFO, answers())[Symbol.asyncIterator]();
    let written = '';
    // The first answer is compressed and written (flushed) while the trend is still unknown.
    while (!written.includes('id="needlework-answers-0">')) written += (await chunks.next()).value;
    let next: IteratorResult<string> | undefined;
    const waiting = chunks.next().then((result) => {
      next = result;
    });
    await new Promise((resolve) => setTimeout(resolve, 10));
    expect(next).toBeUndefined();
    expect(asked).toBe(2);
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
    expect(readReport(written).answers.get('/api/trends?last=30')).toEqual({ runs: [{ id: 'this run' }] });
  });
});

async function collect(chunks: AsyncIterable<string>): Promise<string[]> {
  const out: string[] = [];
  for await (const chunk of chunks) out.push(chunk);
  return out;
}

describe("a long list's JSON", () => {
  it('is what JSON.stringify writes, slice after slice: its holes, undefined and unserialisable items null', async () => {
    // Items of every kind JSON.stringify writes apart, on both sides of where one slice of items ends and the next begins.
    const rows: unknown[] = Array.from({ length: 1_000 }, (_, i) => ({ i, text: `row ${i} é 🧵 </script>` }));
    for (const at of [0, 255, 256, 257, 511, 512, 999]) rows[at] = undefined;
    rows[300] = () => 1;
    rows[301] = Symbol('s');
    rows[302] = null;
    rows[303] = [1, [2, undefined]];
    delete rows[600];
    const answer = { before: 'x', rows, empty: [], after: { n: 1 }, skipped: undefined };
    const page = await renderHtmlPage(INFO, listed([['/api/long', answer]]));
    expect(unpacked(page)).toBe(JSON.stringify(answer));
    expect(JSON.parse(/id="needlework-index">([^<]*)<\/script>/.exec(page)?.[1] ?? '[]')).toEqual([
      ['/api/long', 0, 0, JSON.stringify(answer).length],
    ]);
  });
});

describe('a large report', () => {
  it('is cut into segments of about a megabyte between answers, each read where the index says', async () => {
    const big = (n: number) => ({
      rows: Array.from({ length: 12_000 }, (_, i) => ({
        n,
        i,
        text: `row ${i} of answer ${n}, a line of some length`,
      })),
    });
    const list: ReportAnswer[] = [0, 1, 2, 3].map((n) => [`/api/big/${n}`, big(n)]);
    const page = await renderHtmlPage(INFO, listed(list));
    const index = JSON.parse(/id="needlework-index">([^<]*)<\/script>/.exec(page)?.[1] ?? '[]') as Array<
      [string, number, number, number]
    >;
    const segments = [...new Set(index.map(([, segment]) => segment))];
    expect(segments.length).toBeGreaterThan(1);
    expect(segments.length).toBeLessThan(list.length + 1);
    for (const [path, segment, from, to] of index)
      expect(JSON.parse(unpacked(page, segment).slice(from, to)), path).toEqual(big(Number(path.at(-1))));
    expect(readReport(page).answers.get('/api/big/3')).toEqual(big(3));
  });
});

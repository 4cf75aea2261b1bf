import { describe, expect, it } from 'vitest';
import { OnnxNliVerifier } from '../../src/entailment/onnx/verifier.js';

// Runs only when a real export is configured: NEEDLEWORK_NLI_MODEL=/path/to/nli-deberta-v3-xsmall npx vitest run
// test/entailment/real-model.test.ts. No weights can be downloaded on the machines the suite usually runs on.
const model = process.env.NEEDLEWORK_NLI_MODEL;

describe.skipIf(!model || model.startsWith('hf:'))(
  'OnnxNliVerifier on a real export (NEEDLEWORK_NLI_MODEL)',
  () => {
    it('tells supported claims from contradicted and unrelated ones', async () => {
      const verifier = await OnnxNliVerifier.load(model!, { cache: false });
      const premise =
        'Halberd is a member of Ash Cell. Ash Cell is co-located at Compound-Alpha. Wren is co-located at Compound-Alpha.';
      const [member, located, notMember, owner, weather] = await verifier.score([
        { premise, hypothesis: 'Halberd is a member of Ash Cell.' },
        { premise, hypothesis: 'Wren is at Compound-Alpha.' },
        { premise, hypothesis: 'Halberd is not a member of Ash Cell.' },
        {
          premise: 'Kestrel Group reports grants to several community groups, among them Ash Cell.',
          hypothesis: 'Kestrel Group owns the Compound-Alpha facility.',
        },
        { premise, hypothesis: 'It rained in Port Sable on Tuesday.' },
      ]);
      expect(member).toBeGreaterThan(0.5);
      expect(located).toBeGreaterThan(0.5);
      expect(notMember).toBeLessThan(0.5);
      expect(owner).toBeLessThan(0.5);
      expect(weather).toBeLessThan(0.5);
    });
  },
);

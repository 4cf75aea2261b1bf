import type * as Tokenizers from '@huggingface/tokenizers';
import type * as Ort from 'onnxruntime-node';
import { UserError } from '../../errors/index.js';

/**
 * The packages only entailment needs. They are optional peer dependencies: the ONNX runtime alone is some 290 MB,
 * and a user who never passes `--entail` should not download it, so they are imported here, when a model is about
 * to run, and never by a static import anywhere else.
 */
export const NLI_PEERS = ['onnxruntime-node', '@huggingface/tokenizers'] as const;

/** The two optional peer modules, as `loadNliPeers` imported them. */
export interface NliPeers {
  ort: typeof Ort.default;
  Tokenizer: typeof Tokenizers.Tokenizer;
}

let peers: Promise<NliPeers> | undefined;

/**
 * Imports onnxruntime-node and @huggingface/tokenizers once per process. When either is not installed, rejects with
 * one `UserError` line naming the packages and the command that installs them.
 */
export function loadNliPeers(): Promise<NliPeers> {
  if (!peers) {
    peers = importPeers();
    // A failed import is not kept: the user may install the packages and retry in the same process (watch mode).
    peers.catch(() => {
      peers = undefined;
    });
  }
  return peers;
}

async function importPeers(): Promise<NliPeers> {
  const [ort, tokenizers] = await Promise.all([
    importPeer('onnxruntime-node', () => import('onnxruntime-node')),
    importPeer('@huggingface/tokenizers', () => import('@huggingface/tokenizers')),
  ]);
  if (ort === undefined || tokenizers === undefined) throw missingPeers();
  // onnxruntime-node is CommonJS: `default` is its whole module.exports.
  return { ort: ort.default, Tokenizer: tokenizers.Tokenizer };
}

/**
 * The module, or undefined when the package itself is not installed. Any other failure (a broken native binary, a
 * missing dependency of the package) is thrown as it is: telling the user to install what they have would mislead.
 */
async function importPeer<T>(name: string, load: () => Promise<T>): Promise<T | undefined> {
  try {
    return await load();
  } catch (error) {
    const { code, message } = error as NodeJS.ErrnoException;
    const notFound = code === 'ERR_MODULE_NOT_FOUND' || code === 'MODULE_NOT_FOUND';
    if (notFound && message.includes(`'${name}'`)) return undefined;
    throw error;
  }
}

/** The one line a user without the optional packages reads. */
export function missingPeers(): UserError {
  // The user's package.json is where the fix goes.
  return new UserError({
    file: 'package.json',
    message: `entailment needs the optional packages ${NLI_PEERS.join(' and ')}: npm install -D ${NLI_PEERS.join(' ')}`,
  });
}

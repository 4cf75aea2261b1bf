export interface TinyModelOptions {
  labels?: 1 | 2 | 3;
  tokenTypeIds?: boolean;
  extraInputs?: string[];
  int32Mask?: boolean;
  hidden?: number;
  layers?: number;
}
export interface TinyFolderOptions extends TinyModelOptions {
  layout?: 'root' | 'onnx';
  quantized?: boolean;
  id2label?: Record<string, string> | null;
  maxLength?: number;
}
export const SPECIAL_TOKENS: string[];
export const WORDS: string[];
export const NLI_LABELS: Record<string, string>;
export function vocabulary(): string[];
export function buildModelBytes(options?: TinyModelOptions): Uint8Array;
export function tokenizerJson(): Record<string, unknown>;
export function writeTinyModel(dir: string, options?: TinyFolderOptions): Promise<string>;

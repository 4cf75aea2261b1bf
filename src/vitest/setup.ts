// The `setupFiles` entry: registers needlework's matchers with Vitest's `expect`.
import { expect } from 'vitest';
import * as matchers from './matchers/index.js';
import './types.js';

expect.extend(matchers);

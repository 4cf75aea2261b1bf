import type { Browser } from 'playwright-core';

export const CHROMIUM: string;
export const hasChromium: boolean;
export const NO_CHROMIUM: string;
export function launchChromium(): Promise<Browser>;
